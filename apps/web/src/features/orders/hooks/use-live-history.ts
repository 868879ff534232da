import { BALANCE_UPDATED_EVENT, ordersChannel } from "@bytetoll/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { useRealtimeEvent } from "../../../lib/realtime/use-realtime-connection.ts";
import { HISTORY_QUERY_KEY } from "../api/get-history.ts";

/** While traffic flows the balance is pushed every second; the history is read at most this often. */
export const HISTORY_REFRESH_MS = 5_000;

/**
 * Reads the history again when `balance.updated` arrives on the user's room: an operator's credit
 * or debit, a refund or a group-buy credit changes the balance without any order changing. The
 * first change is read at once; during a stream of changes (proxy traffic) the history is read
 * once more at the end of each interval, so the last change is always shown.
 */
export function useLiveHistory(userId: string | null): void {
  const queryClient = useQueryClient();
  const lastRefresh = useRef(Number.NEGATIVE_INFINITY);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);

  const refresh = useCallback(() => {
    pending.current = null;
    lastRefresh.current = Date.now();
    void queryClient.invalidateQueries({ queryKey: HISTORY_QUERY_KEY });
  }, [queryClient]);

  const onBalanceUpdated = useCallback(() => {
    if (pending.current !== null) return;
    const wait = lastRefresh.current + HISTORY_REFRESH_MS - Date.now();
    if (wait <= 0) refresh();
    else pending.current = setTimeout(refresh, wait);
  }, [refresh]);
  // Joined (or joined again after a drop): what changed before was never pushed here.
  const onJoined = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: HISTORY_QUERY_KEY }),
    [queryClient],
  );
  useRealtimeEvent(userId ? ordersChannel(userId) : null, BALANCE_UPDATED_EVENT, onBalanceUpdated, onJoined);

  useEffect(
    () => () => {
      if (pending.current !== null) clearTimeout(pending.current);
    },
    [],
  );
}
