import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

/** POST /auth/logout-all: revokes every session of the account (the API token keeps working).
 * Unlike logout, a failure is reported: the user asked for other devices to be signed out. */
export async function logoutAll(): Promise<void> {
  await apiRequest<{ success: true }>("/auth/logout-all", { method: "POST" });
}

export function useLogoutAll() {
  return useMutation({ mutationFn: logoutAll });
}
