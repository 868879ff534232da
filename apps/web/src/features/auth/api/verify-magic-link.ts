import type { MagicVerifyRequest, MagicVerifyResponse } from "@bytetoll/contracts";
import { apiRequest, SKIP_AUTH } from "../../../lib/api-client.ts";
import type { CredentialClaim } from "../pending-claim.ts";

/** POST /auth/magic/verify (decision 001): the link's magic_credential exchanged for an app
 * token, presenting the prefilled credentials this browser asked for the link with. */
export async function verifyMagicLink(
  credential: string,
  claim: CredentialClaim | null,
): Promise<MagicVerifyResponse["data"]> {
  const json: MagicVerifyRequest = { access_token: credential, ...claim };
  const body = await apiRequest<MagicVerifyResponse>("/auth/magic/verify", {
    method: "POST",
    json,
    headers: SKIP_AUTH,
  });
  const { token, exp } = body.data ?? {};
  if (typeof token !== "string" || typeof exp !== "number") throw new Error("Missing access token");
  return body.data;
}
