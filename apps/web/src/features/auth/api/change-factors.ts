import type {
  PasskeyRegisterResponse,
  RecoveryCodesResponse,
  TotpDisableRequest,
  TotpSetupResponse,
} from "@bytetoll/contracts";
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from "@simplewebauthn/browser";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { FACTOR_STATUS_QUERY_KEY } from "./get-factor-status.ts";
import { SESSION_QUERY_KEY } from "./get-session.ts";

/** POST /auth/2fa/totp/setup: a pending secret, its otpauth link and QR code. */
export async function setupTotp(): Promise<TotpSetupResponse["data"]> {
  return (await apiRequest<TotpSetupResponse>("/auth/2fa/totp/setup", { method: "POST" })).data;
}

/** POST /auth/2fa/totp/enable: the first code turns the app on; the recovery codes come once. */
export async function enableTotp(code: string): Promise<string[]> {
  const body = await apiRequest<RecoveryCodesResponse>("/auth/2fa/totp/enable", {
    method: "POST",
    json: { code },
  });
  return body.data.recovery_codes;
}

/** POST /auth/2fa/totp/disable with a current code or a recovery code. */
export async function disableTotp(json: TotpDisableRequest): Promise<void> {
  await apiRequest<{ success: true }>("/auth/2fa/totp/disable", { method: "POST", json });
}

/** Options from the server, the browser's passkey dialog, then the result saved on the server. */
export async function addPasskey(name: string): Promise<PasskeyRegisterResponse["data"]> {
  const options = await apiRequest<{ success: true; data: PublicKeyCredentialCreationOptionsJSON }>(
    "/auth/2fa/passkeys/options",
    { method: "POST" },
  );
  const response = await startRegistration({ optionsJSON: options.data });
  const saved = await apiRequest<PasskeyRegisterResponse>("/auth/2fa/passkeys", {
    method: "POST",
    json: { name, response },
  });
  return saved.data;
}

/** DELETE /auth/2fa/passkeys/{id}. */
export async function removePasskey(id: string): Promise<void> {
  await apiRequest<{ success: true }>(`/auth/2fa/passkeys/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** A change to factors: refreshes the factor list and the session (its `second_factor`). */
export function useFactorChange<TInput, TResult>(change: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: FACTOR_STATUS_QUERY_KEY });
      await queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    },
  });
}
