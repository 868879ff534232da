import type { MagicVerifyRequest, MagicVerifyResponse } from "@bytetoll/contracts";
import { apiRequest, SKIP_AUTH } from "../../../lib/api-client.ts";
import type { CredentialClaim } from "../pending-claim.ts";

/** POST /auth/magic/verify (decision 001): the link's magic_credential exchanged for an app
 * token — or, when the account has a second factor, for the challenge to answer with it —
 * presenting the prefilled credentials this browser asked for the link with. */
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
  const data = body.data;
  if (!data) throw new Error("Missing access token");
  if ("two_factor_required" in data) {
    if (typeof data.challenge !== "string") throw new Error("Missing challenge");
    return data;
  }
  if (typeof data.token !== "string" || typeof data.exp !== "number") throw new Error("Missing access token");
  return data;
}
