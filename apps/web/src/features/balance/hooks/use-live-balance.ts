import {
  type AccountStatus,
  BALANCE_UPDATED_EVENT,
  balanceUpdatedEvent,
  ordersChannel,
} from "@bytetoll/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { ACCOUNT_STATUS_QUERY_KEY } from "../../../lib/query-keys.ts";
import { useRealtimeConnection, useRealtimeEvent } from "../../../lib/realtime/use-realtime-connection.ts";
import { accountStatusQueryOptions } from "../api/get-account-status.ts";

/** While the socket is down the balance is read again this often. */
export const BALANCE_POLL_MS = 30_000;

/** The event's balance, when the payload is the contracts' shape (anything else is ignored). */
function balanceOf(payload: unknown): AccountStatus | null {
  const parsed = balanceUpdatedEvent.safeParse(payload);
  return parsed.success ? parsed.data : null;
}

/**
 * The signed-in user's balance, kept live: each `balance.updated` on the user's realtime room
 * replaces the cached figure (every card and warning reading it follows), and while the socket
 * is not connected the balance is polled instead. Each join of the room (first, and after a
 * reconnect) reads it once, since changes may have been missed in between.
 */
export function useLiveBalance(userId: string) {
  const queryClient = useQueryClient();
  const realtime = useRealtimeConnection();
  const connected = realtime === "connected";

  const onUpdate = useCallback(
    (payload: unknown) => {
      const balance = balanceOf(payload);
      if (!balance) return;
      // A read still in flight started before this change: its answer would be older.
      void queryClient
        .cancelQueries({ queryKey: ACCOUNT_STATUS_QUERY_KEY })
        .then(() => queryClient.setQueryData(ACCOUNT_STATUS_QUERY_KEY, balance));
    },
    [queryClient],
  );
  // Each join of the room (the first, and after every reconnect) reads the balance once: a change
  // made before the server put this socket in the room was never pushed to it.
  const onJoined = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ACCOUNT_STATUS_QUERY_KEY });
  }, [queryClient]);
  useRealtimeEvent(ordersChannel(userId), BALANCE_UPDATED_EVENT, onUpdate, onJoined);

  // The server closes the socket when it stops serving the account (disabled): read at once, so
  // the page learns why now rather than at the next poll.
  const wasConnected = useRef(false);
  useEffect(() => {
    if (connected) wasConnected.current = true;
    else if (wasConnected.current) {
      wasConnected.current = false;
      void queryClient.invalidateQueries({ queryKey: ACCOUNT_STATUS_QUERY_KEY });
    }
  }, [connected, queryClient]);

  return useQuery({ ...accountStatusQueryOptions(), refetchInterval: connected ? false : BALANCE_POLL_MS });
}
