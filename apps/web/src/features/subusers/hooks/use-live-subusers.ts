import { useRefreshOnBalanceUpdate } from "../../../lib/realtime/use-refresh-on-balance-update.ts";
import { SUBUSERS_QUERY_KEY } from "../api/subusers.ts";

/** While traffic flows the balance is pushed every second; the sub-users are read at most this often. */
export const SUBUSERS_REFRESH_MS = 1_000;

/**
 * Reads the sub-users again when the owner's balance changes: the gateway adds to a sub-user's use
 * in the same transaction that debits the owner, so a bar and "At its limit" move within a second
 * of the traffic.
 */
export function useLiveSubusers(userId: string | null): void {
  useRefreshOnBalanceUpdate(userId, SUBUSERS_QUERY_KEY, SUBUSERS_REFRESH_MS);
}
