import { useRefreshOnBalanceUpdate } from "../../../lib/realtime/use-refresh-on-balance-update.ts";
import { HISTORY_QUERY_KEY } from "../api/get-history.ts";

/** While traffic flows the balance is pushed every second; the history is read at most this often. */
export const HISTORY_REFRESH_MS = 5_000;

/**
 * Reads the history again when the balance changes: an operator's credit or debit, a refund or a
 * group-buy credit changes the balance without any order changing.
 */
export function useLiveHistory(userId: string | null): void {
  useRefreshOnBalanceUpdate(userId, HISTORY_QUERY_KEY, HISTORY_REFRESH_MS);
}
