import type { AccountAccess } from "@bytetoll/contracts";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { storeToken } from "../../../lib/token-storage.ts";

/** Under ["account"], which logout's cleanup removes. */
export const ACCOUNTS_QUERY_KEY = ["account", "accounts"] as const;

/** GET /accounts: the signed-in person's own account first, then the ones they are a member of. */
export const accountsQueryOptions = () =>
  queryOptions({
    queryKey: ACCOUNTS_QUERY_KEY,
    queryFn: async ({ signal }) =>
      (await apiRequest<{ data: AccountAccess[] }>("/accounts", { signal })).data,
  });

/** POST /auth/switch: stores the new account's token and drops everything cached for the old one. */
export function useSwitchAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (accountId: string) =>
      (
        await apiRequest<{ data: { token: string; exp: number } }>("/auth/switch", {
          method: "POST",
          json: { account_id: accountId },
        })
      ).data,
    onSuccess: ({ token, exp }) => {
      // Nothing cached belongs to the account being opened: the session, balance and lists reload.
      queryClient.clear();
      storeToken({ token, exp });
    },
  });
}
