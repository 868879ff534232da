import type { SignedIn, TwoFactorVerifyRequest } from "@bytetoll/contracts";
import { apiRequest, SKIP_AUTH } from "../../../lib/api-client.ts";

/** POST /auth/2fa/verify: the sign-in challenge and one factor traded for the app token. */
export async function verifySecondFactor(json: TwoFactorVerifyRequest): Promise<SignedIn> {
  const body = await apiRequest<{ success: true; data: SignedIn }>("/auth/2fa/verify", {
    method: "POST",
    json,
    headers: SKIP_AUTH,
  });
  return body.data;
}
