import type net from "node:net";
import { SocketReader } from "./socket-reader.ts";

/** An open connection to a target (direct or through an upstream) with its reader. */
export interface TargetConnection {
  socket: net.Socket;
  reader: SocketReader;
  /** It has carried a request before: it may have been closed by the target meanwhile. */
  reused: boolean;
}

const IDLE_TIMEOUT_MS = 30_000;
const MAX_IDLE_PER_KEY = 64;

/** Idle kept-alive target connections per (upstream, vetted address, port). */
export class TargetPool {
  private readonly idle = new Map<string, TargetConnection[]>();
  private readonly forgetters = new WeakMap<TargetConnection, () => void>();

  acquire(key: string): TargetConnection | null {
    const list = this.idle.get(key);
    while (list && list.length > 0) {
      const connection = list.pop() as TargetConnection;
      if (list.length === 0) this.idle.delete(key);
      connection.socket.setTimeout(0);
      const forget = this.forgetters.get(connection);
      if (forget) connection.socket.removeListener("close", forget);
      if (!connection.socket.destroyed && !connection.reader.exhausted) {
        connection.reused = true;
        return connection;
      }
      connection.socket.destroy();
    }
    return null;
  }

  /** Any inactivity timeout set on a target socket (idle in the pool, or silent mid-request)
   * ends it. */
  wrap(socket: net.Socket): TargetConnection {
    socket.on("timeout", () => socket.destroy());
    return { socket, reader: new SocketReader(socket), reused: false };
  }

  release(key: string, connection: TargetConnection): void {
    const list = this.idle.get(key) ?? [];
    if (list.length >= MAX_IDLE_PER_KEY || connection.socket.destroyed) {
      connection.socket.destroy();
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
    connection.socket.setTimeout(IDLE_TIMEOUT_MS);
    this.forgetters.set(connection, forget);
    connection.socket.once("close", forget);
  }

  destroy(): void {
    for (const list of this.idle.values()) for (const connection of list) connection.socket.destroy();
    this.idle.clear();
  }
}
