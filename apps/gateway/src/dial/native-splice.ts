import net from "node:net";
import type { Duplex } from "node:stream";
import tls from "node:tls";
import type { GatewayConfig } from "@bytetoll/egress";
import {
  type SpliceAddon,
  SpliceCount,
  type SpliceDial,
  SpliceEvent,
  spliceAddon,
  unavailableBecause,
} from "@bytetoll/splice";
import { type ClientSocket, NativeClient, NativeSocket } from "../base/native-socket.ts";
import type { SocketReader } from "../base/socket-reader.ts";
import { closeAfterRelay, countedByRelay, stopOnDestroy } from "./spliced-sockets.ts";

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

/** The descriptor of a plain, open, idle TCP socket whose bytes Node has not yet seen end, or of
 * a native one not yet handed over to Node; null for anything else (TLS on either side, a socket
 * with writes still queued). */
function spliceableDescriptor(socket: ClientSocket): number | null {
  if (socket instanceof NativeSocket) {
    if (socket instanceof NativeClient && socket.socket) return spliceableDescriptor(socket.socket);
    return socket.destroyed ? null : socket.fd;
  }
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

/**
 * The target side of a tunnel dialled by the addon (`connectNatively`): a bare descriptor that
 * only the splice relay reads and writes, with the byte counters a tunnel's target socket is
 * asked for (what the relay moved).
 */
export class NativeTarget extends NativeSocket {
  /** Kept current by the relay (SpliceCount): a slot of a shared buffer while the socket is
   * open, a copy of its last figures once it closed. */
  counts = takeCountSlot();
  /** Writing is ended by the relay (its shutdown on the client's FIN), never from JavaScript. */
  readonly writableEnded = false;

  get bytesRead(): number {
    return this.counts[SpliceCount.readTarget] as number;
  }

  get bytesWritten(): number {
    return this.counts[SpliceCount.writtenTarget] as number;
  }

  protected override afterClose(): void {
    const slot = this.counts;
    this.counts = slot.slice();
    freeCountSlots.push(slot);
  }
}

/** Count slots per shared buffer. A Float64Array of its own per tunnel is moved off the heap the
 * first time the addon looks at it (an allocation, an ArrayBuffer for the collector to sweep);
 * a slot is a view made once and reused by the next tunnel once its target closed. */
const SLOTS_PER_BUFFER = 1024;
const freeCountSlots: Float64Array[] = [];

function takeCountSlot(): Float64Array {
  const slot = freeCountSlots.pop();
  if (slot) {
    slot.fill(0);
    return slot;
  }
  const shared = new Float64Array(SLOTS_PER_BUFFER * 4);
  for (let i = SLOTS_PER_BUFFER - 1; i > 0; i--) freeCountSlots.push(shared.subarray(i * 4, i * 4 + 4));
  return shared.subarray(0, 4);
}

/** The chunks as one buffer for the relay's first write (null: nothing to write), copied only
 * when there are several: a tunnel usually has just its answer, or nothing. */
function joined(chunks: Buffer[]): Buffer | null {
  if (chunks.length > 1) return Buffer.concat(chunks);
  const only = chunks[0];
  return only && only.length > 0 ? only : null;
}

/** Whether a tunnel for `client` to a direct exit can be dialled by the addon: the relay will
 * splice it from its first byte, so its target never needs a Node socket. */
export function dialsNatively(client: ClientSocket): boolean {
  return setting !== "off" && spliceAddon !== null && spliceableDescriptor(client) !== null;
}

/** The connect of `dialsNatively`: rejects with Node's message and code for a failed connect
 * (`connect ECONNREFUSED 127.0.0.1:9`), or after `timeoutMs`. */
export function connectNatively(address: string, port: number, timeoutMs: number): Promise<NativeTarget> {
  const addon = spliceAddon as SpliceAddon;
  const failure = (code: string) =>
    Object.assign(new Error(`connect ${code} ${address}:${port}`), { code, address, port });
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const dial = addon.connect(address, port, (code, fd) => {
      clearTimeout(timer);
      if (code === undefined) resolve(new NativeTarget(addon, fd, address, port));
      else reject(failure(code));
    });
    if (typeof dial === "string") {
      reject(failure(dial));
      return;
    }
    timer = setTimeout(() => {
      addon.cancel(dial as SpliceDial);
      reject(new Error(`connect to ${address}:${port} timed out`));
    }, timeoutMs);
  });
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
 * not `off`, both sockets are plain TCP, or the target is a NativeTarget); returns false
 * otherwise, and nothing was touched. `answer` (the front-end's reply: `200 Connection
 * Established`, SOCKS5's success) goes to the client first, written by the relay.
 *
 * Node keeps the client socket (and a Node target socket), idle, until the relay ends (the addon
 * watches their descriptors and never closes them): their `close` events, `destroy()` from
 * anywhere (balance cut-off, a revoked credential, shutdown: it stops the relay first) and the
 * target's byte counters (`bytesRead`/`bytesWritten` go on counting what the relay moves, so
 * metering and connection outcomes read them as before) work as for a tunnel relayed in
 * JavaScript. A socket error is raised on the socket it happened on, with its errno code.
 */
export function spliceNatively(
  client: ClientSocket,
  clientBuffered: Buffer[],
  answer: Buffer | null,
  target: Duplex | NativeTarget,
  targetReader: SocketReader | null,
  tunnel: SplicedTunnel,
): boolean {
  if (setting === "off" || !spliceAddon) return false;
  const clientFd = spliceableDescriptor(client);
  const native = target instanceof NativeTarget ? target : null;
  const targetFd = native ? (native.destroyed ? null : native.fd) : spliceableDescriptor(target as Duplex);
  if (clientFd === null || targetFd === null) return false;
  // A native client not handed over has no Node socket: nothing was read past what it gave.
  const nativeClient = client instanceof NativeClient && !client.socket ? client : null;
  const clientSocket = client instanceof NativeClient ? (client.socket ?? client) : (client as net.Socket);
  // The relay writes whatever one splice moved, and no byte should wait for an ACK: every client
  // socket has Nagle off from the moment the listeners accepted it (Listeners.track).

  const clientRead = nativeClient ? [] : takeOver(clientSocket as net.Socket);
  const toTarget = joined([...clientBuffered, ...clientRead]);
  const fromTarget = native ? [] : [...(targetReader?.detach() ?? []), ...takeOver(target as net.Socket)];
  const toClient = joined(answer ? [answer, ...fromTarget] : fromTarget);
  const counts = native ? native.counts : countedByRelay(target as net.Socket);
  const targetSocket = native ?? (target as net.Socket);

  const addon = spliceAddon;
  let running = true;
  /** Node never sees the relay's bytes: an inactivity timeout set on a Node socket (a pooled
   * target's, for a 101 switch) is restarted when bytes move, as their reads would have. */
  const timed = [clientSocket, targetSocket].filter(
    (socket): socket is net.Socket => socket instanceof net.Socket,
  );
  const active = () => {
    for (const socket of timed) if (socket.timeout) socket.setTimeout(socket.timeout);
  };
  const relayEnded = () => {
    native?.relayEnded();
    nativeClient?.relayEnded();
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
      relayEnded();
      tunnel.onProgress();
      closeAfterRelay(kind === SpliceEvent.done, side, code, clientSocket, targetSocket);
    }
  });
  const stop = () => {
    if (!running) return;
    running = false;
    relayEnded();
    addon.stop(relay);
    tunnel.onProgress();
  };
  for (const socket of [clientSocket, targetSocket]) {
    if (socket instanceof NativeSocket) socket.relayedBy(stop);
    else stopOnDestroy(socket, stop);
  }
  return true;
}
