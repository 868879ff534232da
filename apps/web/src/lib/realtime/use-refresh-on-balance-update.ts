import { BALANCE_UPDATED_EVENT, ordersChannel } from "@bytetoll/contracts";
import { type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { useRealtimeEvent } from "./use-realtime-connection.ts";

/**
 * Reads `queryKey` again when `balance.updated` arrives on the user's room. The first change is
 * read at once; during a stream of changes (proxy traffic pushes the balance every second) it is
 * read at most once per `intervalMs`, and once more at the end of the interval, so the last change
 * is always shown. Joining the room (again, after a drop) reads it too: what changed meanwhile was
 * never pushed here. `queryKey` should be a constant: a new array each render reads nothing more but
 * resubscribes.
 */
export function useRefreshOnBalanceUpdate(
  userId: string | null,
  queryKey: QueryKey,
  intervalMs: number,
): void {
  const queryClient = useQueryClient();
  const lastRefresh = useRef(Number.NEGATIVE_INFINITY);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refresh = useCallback(() => {
    pending.current = null;
    lastRefresh.current = Date.now();
    void queryClient.invalidateQueries({ queryKey });
  }, [queryClient, queryKey]);

  const onBalanceUpdated = useCallback(() => {
    if (pending.current !== null) return;
    const wait = lastRefresh.current + intervalMs - Date.now();
    if (wait <= 0) refresh();
    else pending.current = setTimeout(refresh, wait);
  }, [refresh, intervalMs]);
  const onJoined = useCallback(
    () => void queryClient.invalidateQueries({ queryKey }),
    [queryClient, queryKey],
  );
  useRealtimeEvent(userId ? ordersChannel(userId) : null, BALANCE_UPDATED_EVENT, onBalanceUpdated, onJoined);

  useEffect(
    () => () => {
      if (pending.current !== null) clearTimeout(pending.current);
    },
    [],
  );
}
