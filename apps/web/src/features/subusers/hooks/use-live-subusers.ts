import { BALANCE_UPDATED_EVENT, ordersChannel } from "@bytetoll/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { useRealtimeEvent } from "../../../lib/realtime/use-realtime-connection.ts";
import { SUBUSERS_QUERY_KEY } from "../api/subusers.ts";

/** While traffic flows the balance is pushed every second; the sub-users are read at most this often. */
export const SUBUSERS_REFRESH_MS = 1_000;

/**
 * Reads the sub-users again when `balance.updated` arrives on the owner's room: the gateway adds to
 * a sub-user's use in the same transaction that debits the owner, so a bar and "At its limit" move
 * within a second of the traffic. During a stream of changes the list is read once per interval,
 * and once more after the last change.
 */
export function useLiveSubusers(userId: string | null): void {
  const queryClient = useQueryClient();
  const lastRefresh = useRef(Number.NEGATIVE_INFINITY);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);

  const refresh = useCallback(() => {
    pending.current = null;
    lastRefresh.current = Date.now();
    void queryClient.invalidateQueries({ queryKey: SUBUSERS_QUERY_KEY });
  }, [queryClient]);

  const onBalanceUpdated = useCallback(() => {
    if (pending.current !== null) return;
    const wait = lastRefresh.current + SUBUSERS_REFRESH_MS - Date.now();
    if (wait <= 0) refresh();
    else pending.current = setTimeout(refresh, wait);
  }, [refresh]);
  const onJoined = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: SUBUSERS_QUERY_KEY }),
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
