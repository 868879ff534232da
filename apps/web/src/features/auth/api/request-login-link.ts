import type { LoginRequest, MagicCheckResponse, MessageResponse } from "@bytetoll/contracts";
import { apiRequest, SKIP_AUTH } from "../../../lib/api-client.ts";
import { rememberCredentialClaim } from "../pending-claim.ts";

export const PREPARE_FAILED_MESSAGE = "Unable to prepare account for login.";

/**
 * Checks the login request (POST /magic/check, without a token; it writes nothing) and then asks
 * for the e-mailed link (POST /auth/login). The account and any order the request asks for are
 * made when the link is followed. Prefilled credentials are kept for the link's callback, which
 * must present them for the server to attach them.
 */
export async function requestLoginLink(request: LoginRequest): Promise<void> {
  try {
    await apiRequest<MagicCheckResponse>("/magic/check", {
      method: "POST",
      json: request,
      headers: SKIP_AUTH,
    });
  } catch {
    // docs/product.md#messages: whatever went wrong while preparing, the person sees one message.
    throw new Error(PREPARE_FAILED_MESSAGE);
  }
  await apiRequest<MessageResponse>("/auth/login", { method: "POST", json: request });
  if (request.username && request.password) {
    rememberCredentialClaim({ username: request.username, password: request.password });
  }
}
