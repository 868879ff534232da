import cluster from "node:cluster";
import net from "node:net";
import type { GatewayConfig } from "@bytetoll/egress";
import { Refusal, refuseConnection, sendRawRefusal } from "@bytetoll/egress";
import { type NativeListener, type SpliceAddon, spliceAddon } from "@bytetoll/splice";
import { headEnd, MalformedMessage, parseRequestHead, type RequestHead } from "../base/http-message.ts";
import { NativeClient } from "../base/native-socket.ts";
import type { SessionDeps } from "../relay/session-deps.ts";
import { connectTunnel, malformedRefusal, serveClient } from "./client-session.ts";
import { headTimeoutRefusal } from "./head-deadline.ts";
import { serveNativeSocksClient } from "./socks-session.ts";
import { SOCKS_VERSION } from "./socks5.ts";

/** How long accepting waits after running out of descriptors (EMFILE) before it tries again. */
const ACCEPT_RETRY_MS = 100;
/** Node's default backlog for a listening socket. */
const BACKLOG = 511;
const CONNECT = Buffer.from("CONNECT ", "latin1");

/**
 * The addon, when a port can be served by the native front door: the splice relay is on and
 * built, the gateway binds an IP address, and this process holds its own listening socket (a
 * cluster worker shares its primary's, which only Node's listener can). The SOCKS5 port also
 * needs the addon's `writeSome` (its handshake answers twice before the tunnel). Null: Node's
 * listener.
 */
export function nativeFrontDoorAddon(config: GatewayConfig, port: "http" | "socks"): SpliceAddon | null {
  const addon = spliceAddon;
  if (config.splice === "off" || !addon?.listen || cluster.isWorker || net.isIP(config.host) === 0)
    return null;
  return port === "socks" && !addon.writeSome ? null : addon;
}

/**
 * A port (8080, SOCKS5) accepted by the splice addon instead of a Node server: each connection
 * arrives as a descriptor with its peer and the bytes it had sent, and becomes a NativeClient.
 * On 8080 a CONNECT that came whole in those bytes (what nearly every tunnel client sends) is
 * admitted, dialled and spliced with no Node socket on either side; anything else is handed to
 * the HTTP session on a Node socket made from the descriptor, which behaves as if Node had
 * accepted it. On the SOCKS5 port the handshake is read and answered on the descriptor.
 */
export class NativeFrontDoor {
  private constructor(
    private readonly addon: SpliceAddon,
    private listener: NativeListener | null,
  ) {}

  /** Listens on host:port; rejects as Node's `listen` does (`listen EADDRINUSE: address already
   * in use 127.0.0.1:8080`). */
  static open(
    addon: SpliceAddon,
    host: string,
    port: number,
    onClient: (client: NativeClient, head: Buffer | null) => void,
  ): Promise<NativeFrontDoor> {
    let door: NativeFrontDoor | null = null;
    const listen = addon.listen as NonNullable<SpliceAddon["listen"]>;
    const listener = listen(host, port, BACKLOG, (fd, address, remotePort, head) => {
      if (fd >= 0) onClient(new NativeClient(addon, fd, address, remotePort), head);
      else door?.retrySoon();
    });
    if (typeof listener === "string") {
      const error = Object.assign(new Error(`listen ${listener}: ${reasonOf(listener)} ${host}:${port}`), {
        code: listener,
        syscall: "listen",
        address: host,
        port,
      });
      return Promise.reject(error);
    }
    door = new NativeFrontDoor(addon, listener);
    return Promise.resolve(door);
  }

  get port(): number {
    return this.listener ? this.addon.listenerPort(this.listener) : 0;
  }

  close(): void {
    if (this.listener) this.addon.closeListener(this.listener);
    this.listener = null;
  }

  private retrySoon(): void {
    setTimeout(() => {
      if (this.listener) this.addon.resumeListener(this.listener);
    }, ACCEPT_RETRY_MS).unref();
  }
}

function reasonOf(code: string): string {
  if (code === "EADDRINUSE") return "address already in use";
  if (code === "EACCES") return "permission denied";
  if (code === "EADDRNOTAVAIL") return "address not available";
  return "cannot listen on";
}

/** Serves one natively accepted client from its first bytes (null: none had arrived at accept,
 * so they are awaited, within the head deadline counted from accept). */
export function serveNativeClient(client: NativeClient, head: Buffer | null, deps: SessionDeps): void {
  if (head) {
    serveFirstBytes(client, head, deps, Date.now());
    return;
  }
  const acceptedAt = Date.now();
  const deadline = setTimeout(() => {
    const socket = client.handOver();
    if (!socket) return;
    deps.metrics.refusals.labels("request_timeout").inc();
    refuseConnection(socket, headTimeoutRefusal(deps.headTimeoutMs));
  }, deps.headTimeoutMs);
  client.once("close", () => clearTimeout(deadline));
  client.readSome((bytes) => {
    clearTimeout(deadline);
    if (bytes && bytes.length > 0) serveFirstBytes(client, bytes, deps, acceptedAt);
    else client.destroy();
  });
}

function serveFirstBytes(client: NativeClient, bytes: Buffer, deps: SessionDeps, acceptedAt: number): void {
  // A SOCKS5 greeting on this port is served as on the SOCKS5 port, on the descriptor too.
  if (bytes[0] === SOCKS_VERSION && spliceAddon?.writeSome) {
    serveNativeSocksClient(client, bytes, deps);
    return;
  }
  const request = wholeConnect(bytes);
  if (!request) {
    const socket = client.handOver([bytes]);
    if (socket) serveClient(socket, deps, acceptedAt);
    return;
  }
  const past = bytes.subarray(request.end);
  const leftover = { detach: () => (past.length > 0 ? [past] : []) };
  connectTunnel(client, request.head, leftover, deps).catch((error: unknown) => refuse(client, error, deps));
}

/** The CONNECT request in `bytes` when its head is whole and well formed; null for anything else
 * (another method, SOCKS5 or TLS on this port, a head still arriving, a malformed one), which the
 * HTTP session reads and answers as it always does. */
function wholeConnect(bytes: Buffer): { head: RequestHead; end: number } | null {
  if (bytes.length < CONNECT.length || bytes.compare(CONNECT, 0, CONNECT.length, 0, CONNECT.length) !== 0)
    return null;
  try {
    const end = headEnd(bytes);
    return end === -1 ? null : { head: parseRequestHead(bytes, end), end };
  } catch {
    return null;
  }
}

/** A tunnel that failed before its relay: a refusal is written on a Node socket made for it (the
 * connection then closes, as after any refused CONNECT); anything else is logged and cut. */
function refuse(client: NativeClient, error: unknown, deps: SessionDeps): void {
  const refusal = error instanceof MalformedMessage ? malformedRefusal(error) : error;
  if (!(refusal instanceof Refusal)) {
    deps.logger.error({ err: error }, "client connection failed");
    client.destroy();
    return;
  }
  deps.metrics.refusals.labels(refusal.code).inc();
  const socket = client.handOver();
  if (socket) sendRawRefusal(socket, refusal, true);
}
