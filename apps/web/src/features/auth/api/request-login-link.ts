import type { LoginRequest, MagicCheckResponse, MessageResponse } from "@bytetoll/contracts";
import { ApiError, apiRequest, SKIP_AUTH } from "../../../lib/api-client.ts";
import { rememberCredentialClaim } from "../pending-claim.ts";

export const PREPARE_FAILED_MESSAGE = "Unable to prepare account for login.";

/**
 * Checks the login request (POST /magic/check, without a token; it writes nothing) and then asks
 * for the e-mailed link (POST /auth/login). The account and any order the request asks for are
 * made when the link is followed. Prefilled credentials are kept for the link's callback, which
 * must present them for the server to attach them.
 */
export async function requestLoginLink(asked: LoginRequest): Promise<void> {
  let request = asked;
  try {
    await checkLoginRequest(request);
  } catch (error) {
    // A deal that is no longer live (an old shared link, say) must not keep the person out: they
    // sign in without it, as a visitor without the link would.
    if (!(error instanceof ApiError && error.status === 404 && asked.dealId != null)) {
      throw new Error(PREPARE_FAILED_MESSAGE);
    }
    const { dealId: _deal, purchaseAmount: _amount, ...withoutDeal } = asked;
    request = withoutDeal;
    await checkLoginRequest(request).catch(() => {
      throw new Error(PREPARE_FAILED_MESSAGE);
    });
  }
  await apiRequest<MessageResponse>("/auth/login", { method: "POST", json: request });
  if (request.username && request.password) {
    rememberCredentialClaim({ username: request.username, password: request.password });
  }
}

/** POST /magic/check: validates the request, writes nothing. docs/product.md#messages: whatever
 * else goes wrong while preparing, the person sees one message. */
function checkLoginRequest(request: LoginRequest): Promise<MagicCheckResponse> {
  return apiRequest<MagicCheckResponse>("/magic/check", {
    method: "POST",
    json: request,
    headers: SKIP_AUTH,
  });
}
