import cluster from "node:cluster";
import net from "node:net";
import type { GatewayConfig } from "@bytetoll/egress";
import { type NativeListener, type SpliceAddon, spliceAddon } from "@bytetoll/splice";
import { NativeClient } from "../base/native-socket.ts";

/** The ports the native front door can serve. */
export type NativePort = "http" | "socks";

/** How a cluster primary tells its workers which inherited descriptors are the shared listening
 * sockets: `http=18,socks=19`. */
const INHERITED_LISTENERS = "GATEWAY_LISTEN_FDS";

/** How long accepting waits after running out of descriptors (EMFILE) before it tries again. */
const ACCEPT_RETRY_MS = 100;
/** Node's default backlog for a listening socket. */
const BACKLOG = 511;

/**
 * The addon, when a port can be served by the native front door: the splice relay is on and
 * built and the gateway binds an IP address. The SOCKS5 port also needs the addon's `writeSome`
 * (its handshake answers twice before the tunnel). A cluster worker accepts from the listening
 * socket its primary made and it inherited (`shareListeningSockets`); without one, Node's cluster
 * listener. Null: Node's listener.
 */
export function nativeFrontDoorAddon(config: GatewayConfig, port: NativePort): SpliceAddon | null {
  const addon = spliceAddon;
  if (config.splice === "off" || !addon?.listen || net.isIP(config.host) === 0) return null;
  if (port === "socks" && !addon.writeSome) return null;
  if (cluster.isWorker && inheritedListener(port) === null) return null;
  return addon;
}

/**
 * For a cluster primary (GATEWAY_WORKERS): the listening sockets of the ports the native front
 * door serves, made here once and inherited by every worker (and every restarted one), which all
 * accept from them as from Node's shared cluster socket — one queue, so a worker that dies loses
 * no connection waiting to be accepted. NODE_CLUSTER_SCHED_POLICY=rr keeps Node's listener.
 * Returns the environment that tells the workers, and `close` for the primary's copies once it
 * stops (the sockets close with the last worker's); throws as Node's `listen` does when a port
 * is taken.
 */
export function shareListeningSockets(config: GatewayConfig): SharedListeningSockets {
  const none = { workerEnv: {}, close: () => {} };
  // Round-robin (the operator's choice) is the primary handing each connection to a worker in
  // turn: only Node's cluster listener does that.
  if (process.env.NODE_CLUSTER_SCHED_POLICY === "rr") return none;
  const ports: Array<[NativePort, number | null]> = [
    ["http", config.httpPort],
    ["socks", config.socksPort],
  ];
  const shared: Array<[NativePort, number]> = [];
  const close = () => {
    for (const [, fd] of shared.splice(0)) spliceAddon?.closeDescriptor(fd);
  };
  for (const [name, port] of ports) {
    const addon = nativeFrontDoorAddon(config, name);
    if (port === null || !addon?.listenSocket) continue;
    const fd = addon.listenSocket(config.host, port, BACKLOG);
    if (typeof fd === "string") {
      close();
      throw listenError(fd, config.host, port);
    }
    shared.push([name, fd]);
  }
  if (shared.length === 0) return none;
  return {
    workerEnv: { [INHERITED_LISTENERS]: shared.map(([name, fd]) => `${name}=${fd}`).join(",") },
    close,
  };
}

export interface SharedListeningSockets {
  /** Added to every worker's environment. */
  workerEnv: Record<string, string>;
  close(): void;
}

/** In a cluster worker, the descriptor of the listening socket its primary shared for `port`. */
function inheritedListener(port: NativePort): number | null {
  for (const entry of (process.env[INHERITED_LISTENERS] ?? "").split(",")) {
    const [name, fd] = entry.split("=");
    if (name === port && fd && /^\d+$/.test(fd)) return Number(fd);
  }
  return null;
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

  /** Listens on host:port (a cluster worker: accepts from the socket its primary shared for
   * `which`); rejects as Node's `listen` does (`listen EADDRINUSE: address already in use
   * 127.0.0.1:8080`). */
  static open(
    addon: SpliceAddon,
    which: NativePort,
    at: { host: string; port: number },
    onClient: (client: NativeClient, head: Buffer | null) => void,
  ): Promise<NativeFrontDoor> {
    let door: NativeFrontDoor | null = null;
    const listen = addon.listen as NonNullable<SpliceAddon["listen"]>;
    const inherited = cluster.isWorker ? inheritedListener(which) : null;
    const onAccepted = (fd: number, address: string, remotePort: number, head: Buffer | null) => {
      if (fd >= 0) onClient(new NativeClient(addon, fd, address, remotePort), head);
      else door?.retrySoon();
    };
    const listener =
      inherited === null
        ? listen(at.host, at.port, BACKLOG, onAccepted)
        : listen(inherited, 0, BACKLOG, onAccepted);
    if (typeof listener === "string") return Promise.reject(listenError(listener, at.host, at.port));
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

/** The error Node's `listen` gives for errno `code`. */
function listenError(code: string, host: string, port: number): Error {
  return Object.assign(new Error(`listen ${code}: ${reasonOf(code)} ${host}:${port}`), {
    code,
    syscall: "listen",
    address: host,
    port,
  });
}

function reasonOf(code: string): string {
  if (code === "EADDRINUSE") return "address already in use";
  if (code === "EACCES") return "permission denied";
  if (code === "EADDRNOTAVAIL") return "address not available";
  return "cannot listen on";
}
