import type { MagicVerifyResponse } from "@bytetoll/contracts";
import { apiRequest, SKIP_AUTH } from "../../../lib/api-client.ts";

/** POST /auth/magic/verify (decision 001): the link's magic_credential exchanged for an app token. */
export async function verifyMagicLink(credential: string): Promise<MagicVerifyResponse["data"]> {
  const body = await apiRequest<MagicVerifyResponse>("/auth/magic/verify", {
    method: "POST",
    json: { access_token: credential },
    headers: SKIP_AUTH,
  });
  const { token, exp } = body.data ?? {};
  if (typeof token !== "string" || typeof exp !== "number") throw new Error("Missing access token");
  return body.data;
}
