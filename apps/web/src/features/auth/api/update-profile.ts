import type { SessionResponse, SessionUser } from "@bytetoll/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { readUsableToken } from "../../../lib/token-storage.ts";
import { sessionQueryOptions } from "./get-session.ts";

/** PATCH /account/profile: the server trims, validates, and turns "" into null; it answers with
 * the session user, so the reply replaces the cached session as it is. */
export async function updateProfile(refundAddress: string): Promise<SessionUser> {
  const body = await apiRequest<SessionResponse>("/account/profile", {
    method: "PATCH",
    json: { refund_address: refundAddress },
  });
  return body.data;
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      // The session cache is keyed by the token (see get-session.ts): update this sign-in's entry.
      const token = readUsableToken();
      if (token) queryClient.setQueryData(sessionQueryOptions(token).queryKey, user);
    },
  });
}
