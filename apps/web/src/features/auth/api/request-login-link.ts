import type {
  LoginRequest,
  MagicCheckResponse,
  MessageResponse,
  SendLoginLinkRequest,
} from "@bytetoll/contracts";
import { apiRequest, SKIP_AUTH } from "../../../lib/api-client.ts";

export const PREPARE_FAILED_MESSAGE = "Unable to prepare account for login.";

/**
 * Prepares the account (POST /magic/check, without a token) and then asks for the e-mailed link
 * (POST /auth/login) carrying the order id the check created, so the link lands on that order.
 */
export async function requestLoginLink(request: LoginRequest): Promise<void> {
  let orderId: string | null = null;
  try {
    const check = await apiRequest<MagicCheckResponse>("/magic/check", {
      method: "POST",
      json: request,
      headers: SKIP_AUTH,
    });
    orderId = check.data?.orderId ?? null;
  } catch {
    // SPEC §8: whatever went wrong while preparing, the person sees one message.
    throw new Error(PREPARE_FAILED_MESSAGE);
  }
  const body: SendLoginLinkRequest = orderId ? { ...request, orderId } : request;
  await apiRequest<MessageResponse>("/auth/login", { method: "POST", json: body });
}
