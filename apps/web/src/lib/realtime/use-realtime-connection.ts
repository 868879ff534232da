import { useEffect, useRef, useSyncExternalStore } from "react";
import { isTokenUsable, useStoredToken } from "../token-storage.ts";
import { type RealtimeConnection, type RealtimeState, realtimeConnectionFor } from "./realtime-connection.ts";

function useConnection(): RealtimeConnection {
  const stored = useStoredToken();
  return realtimeConnectionFor(isTokenUsable(stored) ? stored.token : null);
}

/**
 * docs/product.md#realtime (disconnected, connecting, connected, error), keeping the connection
 * open while the caller is mounted. Features that poll when realtime is down (deals) read this.
 */
export function useRealtimeConnection(): RealtimeState {
  const connection = useConnection();
  useEffect(() => connection.retain(), [connection]);
  return useSyncExternalStore(connection.subscribeState, connection.getState, () => "disconnected");
}

/** Joins `channel` while mounted (null: nothing to join) and hands each `event` payload to `onEvent`. */
export function useRealtimeEvent(
  channel: string | null,
  event: string,
  onEvent: (payload: unknown) => void,
): void {
  const connection = useConnection();
  // The latest handler without re-joining the room on every render.
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  useEffect(() => {
    if (channel === null) return;
    return connection.listen(channel, event, (payload) => handler.current(payload));
  }, [connection, channel, event]);
}
