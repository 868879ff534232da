import type net from "node:net";
import type { UpstreamSpec } from "@bytetoll/egress";
import { SocketReader } from "../base/socket-reader.ts";
import type { DialTarget, TargetSocket } from "./dial.ts";
import type { NativeTarget } from "./native-splice.ts";

/** An open connection to a target (direct or through an upstream) with its reader. */
export interface TargetConnection {
  /** The dialed socket with its billing cursor. */
  target: TargetSocket;
  socket: net.Socket;
  reader: SocketReader;
  /** It has carried a request before: it may have been closed by the target meanwhile. */
  reused: boolean;
}

const IDLE_TIMEOUT_MS = 30_000;
const MAX_IDLE_PER_KEY = 64;

/** The upstream's part of its pool keys, built once per upstream rather than per request. */
const keyPrefixes = new WeakMap<UpstreamSpec, string>();

/** Which idle connections may carry a request: the same way out (upstream, with the account used
 * there and the TLS name it is reached by) to the same vetted address and port. Customers and
 * host names may share one, as an HTTP/1.1 proxy's connection to an origin does; bytes may not
 * (see `release`). */
export function poolKey(upstream: UpstreamSpec, target: DialTarget): string {
  let prefix = keyPrefixes.get(upstream);
  if (prefix === undefined) {
    const account = upstream.kind === "direct" ? "" : (upstream.username ?? "");
    const tlsName = upstream.kind === "https" ? upstream.host : "";
    prefix = JSON.stringify([upstream.id, account, tlsName]).slice(0, -1);
    keyPrefixes.set(upstream, prefix);
  }
  return `${prefix},${JSON.stringify(target.address)},${target.port}]`;
}

/** An idle native target (see `releaseNative`) and since when it idles (Date.now()). */
interface IdleNative {
  target: TargetSocket<NativeTarget>;
  since: number;
}

/** Idle kept-alive target connections per pool key: Node sockets with their readers, and bare
 * descriptors the native plain path dialled (kept apart: each path reads only its own kind). */
export class TargetPool {
  private readonly idle = new Map<string, TargetConnection[]>();
  private readonly forgetters = new WeakMap<TargetConnection, () => void>();
  private readonly idleNative = new Map<string, IdleNative[]>();
  /** Closes native targets idle for IDLE_TIMEOUT_MS (one timer, not one per connection). */
  private sweeper: NodeJS.Timeout | null = null;

  acquire(key: string): TargetConnection | null {
    const list = this.idle.get(key);
    while (list && list.length > 0) {
      const connection = list.pop() as TargetConnection;
      if (list.length === 0) this.idle.delete(key);
      const { socket, reader } = connection;
      socket.setTimeout(0);
      reader.unpark();
      const forget = this.forgetters.get(connection);
      if (forget) socket.removeListener("close", forget);
      if (!socket.destroyed && !reader.exhausted && reader.buffered === 0) {
        connection.reused = true;
        // Billing of the next request starts here, whatever the counters did before.
        connection.target.restartBilling();
        return connection;
      }
      socket.destroy();
    }
    return null;
  }

  /** Any inactivity timeout set on a target socket (idle in the pool, or silent mid-request)
   * ends it. */
  wrap(target: TargetSocket): TargetConnection {
    const { socket } = target;
    socket.on("timeout", () => socket.destroy());
    return { target, socket, reader: new SocketReader(socket, target.reads), reused: false };
  }

  /** Keeps a connection whose response ended exactly at a message boundary: a byte already read
   * past it, or any byte arriving while it is idle (a late or unsolicited response), would be
   * taken for the next request's answer, maybe another customer's, so either closes it. */
  release(key: string, connection: TargetConnection): void {
    const { socket, reader } = connection;
    const list = this.idle.get(key) ?? [];
    if (list.length >= MAX_IDLE_PER_KEY || socket.destroyed || reader.buffered > 0) {
      socket.destroy();
      return;
    }
    list.push(connection);
    this.idle.set(key, list);
    const forget = () => {
      const current = this.idle.get(key);
      const index = current?.indexOf(connection) ?? -1;
      if (current && index !== -1) {
        current.splice(index, 1);
        if (current.length === 0) this.idle.delete(key);
      }
    };
    socket.setTimeout(IDLE_TIMEOUT_MS);
    this.forgetters.set(connection, forget);
    socket.once("close", forget);
    reader.park(() => socket.destroy());
  }

  /** The most recently released native target for `key`, its billing restarted; null: none. */
  acquireNative(key: string): TargetSocket<NativeTarget> | null {
    const list = this.idleNative.get(key);
    while (list && list.length > 0) {
      const { target } = list.pop() as IdleNative;
      if (list.length === 0) this.idleNative.delete(key);
      if (target.socket.destroyed) continue;
      target.socket.cancelRead();
      target.restartBilling();
      return target;
    }
    return null;
  }

  /** Keeps a native target whose response ended exactly at a message boundary (the caller read
   * nothing past it). Any byte or close while it idles (a late answer, a `408`, the site's
   * timeout) closes it, as `release` does for a Node socket. */
  releaseNative(key: string, target: TargetSocket<NativeTarget>): void {
    const { socket } = target;
    const list = this.idleNative.get(key) ?? [];
    if (list.length >= MAX_IDLE_PER_KEY || socket.destroyed) {
      socket.destroy();
      return;
    }
    const entry = { target, since: Date.now() };
    list.push(entry);
    this.idleNative.set(key, list);
    socket.readSome(() => {
      socket.destroy();
      const current = this.idleNative.get(key);
      const index = current?.indexOf(entry) ?? -1;
      if (current && index !== -1) current.splice(index, 1);
      if (current?.length === 0) this.idleNative.delete(key);
    });
    this.sweeper ??= setInterval(() => this.sweepNative(), IDLE_TIMEOUT_MS / 3).unref();
  }

  private sweepNative(): void {
    const cutoff = Date.now() - IDLE_TIMEOUT_MS;
    for (const [key, list] of this.idleNative) {
      // Oldest first: released in order, taken from the end.
      while (list.length > 0 && (list[0] as IdleNative).since <= cutoff)
        (list.shift() as IdleNative).target.socket.destroy();
      if (list.length === 0) this.idleNative.delete(key);
    }
    if (this.idleNative.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  destroy(): void {
    for (const list of this.idle.values()) for (const connection of list) connection.socket.destroy();
    this.idle.clear();
    for (const list of this.idleNative.values()) for (const { target } of list) target.socket.destroy();
    this.idleNative.clear();
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }
}
