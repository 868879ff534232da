import { io, type Socket } from "socket.io-client";
import { API_BASE_URL } from "../env.ts";

/** docs/product.md#realtime states. */
export type RealtimeState = "disconnected" | "connecting" | "connected" | "error";

type Handler = (payload: unknown) => void;

/**
 * One Socket.IO connection (decision 003) for one bearer token, shared by every part of the page.
 * It connects while at least one component uses it, remembers the channels they joined and joins
 * them again after each reconnect, because the server forgets a socket's rooms when it drops.
 */
export class RealtimeConnection {
  readonly token: string | null;
  private readonly socket: Socket;
  private state: RealtimeState = "disconnected";
  private readonly stateListeners = new Set<() => void>();
  private readonly channels = new Map<string, number>();
  /** Per channel: what to call each time the server confirms the join (see `listen`). */
  private readonly joinedListeners = new Map<string, Set<() => void>>();
  private users = 0;

  constructor(token: string | null) {
    this.token = token;
    // Same origin unless the API lives elsewhere; anonymous sockets may only join `deals`.
    this.socket = io(API_BASE_URL || undefined, {
      path: "/socket.io",
      autoConnect: false,
      auth: token ? { token } : {},
    });
    this.socket.on("connect", () => {
      this.setState("connected");
      for (const channel of this.channels.keys()) this.emitSubscribe(channel);
    });
    this.socket.on("connect_error", () => {
      // Either a failed attempt (socket.io retries on its own) or a refusal of the handshake token.
      this.setState("error");
    });
    this.socket.on("disconnect", () => {
      this.setState(this.socket.active ? "connecting" : "disconnected");
    });
    this.socket.io.on("reconnect_attempt", () => this.setState("connecting"));
  }

  getState = (): RealtimeState => this.state;

  subscribeState = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  /** Keeps the connection open until the returned release is called. */
  retain(): () => void {
    this.users += 1;
    if (this.users === 1) {
      this.setState("connecting");
      this.socket.connect();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.users -= 1;
      if (this.users === 0) {
        this.socket.disconnect();
        this.setState("disconnected");
      }
    };
  }

  /**
   * Joins `channel` (a Socket.IO room) and calls `handler` for `event`; returns the way out.
   * `onJoined` is called each time the server confirms the join (the first, and after every
   * reconnect): an event sent before that never reached this socket, so the caller reads again
   * what the channel would have told it.
   */
  listen(channel: string, event: string, handler: Handler, onJoined?: () => void): () => void {
    const release = this.retain();
    const count = this.channels.get(channel) ?? 0;
    this.channels.set(channel, count + 1);
    if (onJoined) {
      const listeners = this.joinedListeners.get(channel) ?? new Set();
      listeners.add(onJoined);
      this.joinedListeners.set(channel, listeners);
    }
    if (count === 0 && this.socket.connected) this.emitSubscribe(channel);
    this.socket.on(event, handler);
    return () => {
      this.socket.off(event, handler);
      if (onJoined) this.joinedListeners.get(channel)?.delete(onJoined);
      const left = (this.channels.get(channel) ?? 1) - 1;
      if (left > 0) this.channels.set(channel, left);
      else {
        this.channels.delete(channel);
        if (this.socket.connected) this.socket.emit("unsubscribe", { channel });
      }
      release();
    };
  }

  close(): void {
    this.socket.disconnect();
    this.setState("disconnected");
  }

  private emitSubscribe(channel: string): void {
    this.socket.emit("subscribe", { channel }, (ack: unknown) => {
      const ok = typeof ack === "object" && ack !== null && (ack as { ok?: unknown }).ok === true;
      // A refused channel means no events will come: say so rather than pretend to be live.
      if (!ok) this.setState("error");
      else for (const onJoined of this.joinedListeners.get(channel) ?? []) onJoined();
    });
  }

  private setState(next: RealtimeState): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.stateListeners) listener();
  }
}

let current: RealtimeConnection | null = null;

/** The page's connection for `token`; a different token (sign-in, sign-out) replaces the old one. */
export function realtimeConnectionFor(token: string | null): RealtimeConnection {
  if (current && current.token === token) return current;
  current?.close();
  current = new RealtimeConnection(token);
  return current;
}
