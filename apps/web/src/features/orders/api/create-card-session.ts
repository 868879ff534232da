import type { CardSessionResponse } from "@bytetoll/contracts";
import { ApiError, apiRequest } from "../../../lib/api-client.ts";

export const INVALID_RESPONSE_MESSAGE = "Invalid response from server.";
export const CARD_SESSION_FAILED_MESSAGE = "Something went wrong. Please try again.";

/**
 * POST /stripe/sessions (decision 003): the hosted card page for an order. docs/product.md#validation/§8: an answer
 * without a redirect URL is an error of its own; other failures show the server's text or a fallback.
 */
export async function createCardSession(orderId: string): Promise<string> {
  // The answer is checked, not trusted: a server answering without a URL is an error of its own.
  let body: Partial<CardSessionResponse>;
  try {
    body = await apiRequest<Partial<CardSessionResponse>>("/stripe/sessions", {
      method: "POST",
      json: { order_id: orderId },
    });
  } catch (error) {
    if (error instanceof ApiError && error.fromServer) throw error;
    throw new Error(CARD_SESSION_FAILED_MESSAGE);
  }
  const url = body.data?.redirect_url;
  if (typeof url !== "string" || url.length === 0) throw new Error(INVALID_RESPONSE_MESSAGE);
  return url;
}
