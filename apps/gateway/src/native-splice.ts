import net from "node:net";
import type { Duplex } from "node:stream";
import tls from "node:tls";
import { SpliceCount, SpliceEvent, spliceAddon, unavailableBecause } from "@bytetoll/splice";
import type { GatewayConfig } from "./config.ts";
import type { SocketReader } from "./socket-reader.ts";

export type SpliceSetting = GatewayConfig["splice"];

let setting: SpliceSetting = "off";

/**
 * Chooses how this process relays tunnels from now on and says which path is active, for the
 * start log line. One choice per process: the gateway that listened last sets it (production runs
 * one).
 */
export function chooseTunnelRelay(choice: SpliceSetting): string {
  setting = choice;
  if (choice === "off") return "javascript (GATEWAY_SPLICE=off)";
  if (!spliceAddon) return `javascript (${unavailableBecause ?? "no splice addon"})`;
  return "splice (plain-TCP tunnels; TLS and 8443 in javascript)";
}

interface StreamHandle {
  fd?: number;
  reading?: boolean;
  readStop?: () => number;
}

interface InternalSocket {
  _handle?: StreamHandle | null;
  _readableState?: { ended?: boolean };
}

/** The descriptor of a plain, open, idle TCP socket whose bytes Node has not yet seen end;
 * null for anything else (TLS on either side, a socket with writes still queued). */
function spliceableDescriptor(socket: Duplex): number | null {
  if (!(socket instanceof net.Socket) || socket instanceof tls.TLSSocket) return null;
  if (socket.destroyed || socket.connecting || !socket.writable || socket.writableLength > 0) return null;
  const internal = socket as unknown as InternalSocket;
  if (internal._readableState?.ended) return null;
  const fd = internal._handle?.fd;
  return typeof fd === "number" && fd >= 0 && typeof internal._handle?.readStop === "function" ? fd : null;
}

/** Takes what Node has read but nobody consumed yet, and stops Node reading the socket: from
 * here on its bytes are the relay's. Synchronous, so no read can happen in between. */
function takeOver(socket: net.Socket): Buffer[] {
  const taken: Buffer[] = [];
  for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null)
    taken.push(chunk);
  socket.pause();
  const handle = (socket as unknown as InternalSocket)._handle as StreamHandle;
  handle.reading = false;
  handle.readStop?.();
  return taken;
}

/** Emitted on a spliced target socket when one direction finishes, with the side whose FIN it
 * was ("client" or "target"): Node reads neither socket then, so this is what its `end` event and
 * `writableEnded` tell about a tunnel relayed in JavaScript (connection outcomes need who hung up
 * first). */
export const SPLICE_HALF_CLOSED = "spliceHalfClosed";

export interface SplicedTunnel {
  /** Moved bytes: the target socket's counters already include them. */
  onProgress(): void;
  /** One direction finished (0: client → target, 1: target → client). */
  onHalfClosed(direction: number): void;
}

/**
 * Relays a tunnel with the splice addon when it applies (the addon is there, GATEWAY_SPLICE is
 * not `off`, both sockets are plain TCP); returns false otherwise, and nothing was touched.
 *
 * Node keeps both sockets, idle, until the relay ends (the addon watches their descriptors and
 * never closes them): their `close` events, `destroy()` from anywhere (balance cut-off, a revoked
 * credential, shutdown: it stops the relay first) and the target's byte counters (`bytesRead`/`bytesWritten` go on counting what the relay moves, so
 * metering and connection outcomes read them as before) work as for a tunnel relayed in
 * JavaScript. A socket error is raised on the socket it happened on, with its errno code.
 */
export function spliceNatively(
  client: Duplex,
  clientBuffered: Buffer[],
  target: Duplex,
  targetReader: SocketReader,
  tunnel: SplicedTunnel,
): boolean {
  if (setting === "off" || !spliceAddon) return false;
  const clientFd = spliceableDescriptor(client);
  const targetFd = spliceableDescriptor(target);
  if (clientFd === null || targetFd === null) return false;
  const clientSocket = client as net.Socket;
  const targetSocket = target as net.Socket;
  // The relay writes whatever one splice moved: no byte should wait for an ACK (Nagle).
  clientSocket.setNoDelay(true);

  const toTarget = Buffer.concat([...clientBuffered, ...takeOver(clientSocket)]);
  const toClient = Buffer.concat([...targetReader.detach(), ...takeOver(targetSocket)]);
  const counts = new Float64Array(4);
  const readBefore = targetSocket.bytesRead;
  const writtenBefore = targetSocket.bytesWritten;
  Object.defineProperty(targetSocket, "bytesRead", {
    get: () => readBefore + (counts[SpliceCount.readTarget] as number),
  });
  Object.defineProperty(targetSocket, "bytesWritten", {
    get: () => writtenBefore + (counts[SpliceCount.writtenTarget] as number),
  });

  const addon = spliceAddon;
  let running = true;
  /** Node never sees the relay's bytes: an inactivity timeout set on either socket (a pooled
   * target's, for a 101 switch) is restarted when bytes move, as their reads would have. */
  const active = () => {
    for (const socket of [clientSocket, targetSocket]) if (socket.timeout) socket.setTimeout(socket.timeout);
  };
  const relay = addon.start(clientFd, targetFd, toTarget, toClient, counts, (kind, side, code) => {
    if (kind === SpliceEvent.progress) {
      tunnel.onProgress();
      active();
    } else if (kind === SpliceEvent.halfClosed) {
      targetSocket.emit(SPLICE_HALF_CLOSED, side === 0 ? "client" : "target");
      tunnel.onHalfClosed(side);
    } else {
      running = false;
      tunnel.onProgress();
      if (kind === SpliceEvent.done) {
        clientSocket.destroy();
        targetSocket.destroy();
        return;
      }
      const failed = side === 0 ? clientSocket : targetSocket;
      const other = side === 0 ? targetSocket : clientSocket;
      failed.destroy(Object.assign(new Error(`${code} on a spliced tunnel`), { code }));
      other.destroy();
    }
  });
  for (const socket of [clientSocket, targetSocket]) {
    const destroy = socket._destroy.bind(socket);
    socket._destroy = (error, callback) => {
      if (running) {
        running = false;
        addon.stop(relay);
        tunnel.onProgress();
      }
      destroy(error, callback);
    };
  }
  return true;
}
