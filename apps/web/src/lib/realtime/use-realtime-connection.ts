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

/**
 * Joins `channel` while mounted (null: nothing to join) and hands each `event` payload to
 * `onEvent`. `onJoined` runs each time the server confirms the join (first join and every
 * reconnect): changes made before it were never sent to this page, so read them again there.
 */
export function useRealtimeEvent(
  channel: string | null,
  event: string,
  onEvent: (payload: unknown) => void,
  onJoined?: () => void,
): void {
  const connection = useConnection();
  // The latest handlers without re-joining the room on every render.
  const handlers = useRef({ onEvent, onJoined });
  useEffect(() => {
    handlers.current = { onEvent, onJoined };
  });
  const wantsJoined = onJoined !== undefined;
  useEffect(() => {
    if (channel === null) return;
    return connection.listen(
      channel,
      event,
      (payload) => handlers.current.onEvent(payload),
      wantsJoined ? () => handlers.current.onJoined?.() : undefined,
    );
  }, [connection, channel, event, wantsJoined]);
}
