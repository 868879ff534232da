import http from "node:http";
import net, { type AddressInfo, type Socket } from "node:net";
import tls from "node:tls";
import type { GatewayConfig } from "@bytetoll/egress";
import { closeConnection, Refusal, refuseConnection } from "@bytetoll/egress";
import type { Registry } from "prom-client";
import type { GatewayMetrics } from "../base/metrics.ts";
import { NativeClient } from "../base/native-socket.ts";
import type { SessionDeps } from "../relay/session-deps.ts";
import { serveClient } from "./client-session.ts";
import type { ConnectionLimits } from "./connection-limits.ts";
import { serveNativeClient } from "./native-front-door.ts";
import { NativeFrontDoor, nativeFrontDoorAddon } from "./native-listen.ts";
import { serveNativeSocksClient, serveSocksClient } from "./socks-session.ts";
import { SOCKS_VERSION, SocksMethod } from "./socks5.ts";

type Listener = "http" | "https" | "socks";

export function portOf(server: net.Server | null): number {
  const address = server?.address();
  return address && typeof address === "object" ? (address as AddressInfo).port : 0;
}

function listenOn(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.removeListener("error", reject);
      resolve();
    });
  });
}

/** Sets TCP_NODELAY on a listening socket: Linux copies it to every socket the listener accepts,
 * so the accepted ones need no `setsockopt` each. False (nothing set) where that cannot be relied
 * on: another system, or a cluster worker handed its connections by the primary (its server has
 * no socket of its own); each accepted socket then sets its own. */
export function noDelayForAccepted(server: net.Server): boolean {
  if (process.platform !== "linux") return false;
  const handle = (server as unknown as { _handle?: { setNoDelay?: (enable: boolean) => number } | null })
    ._handle;
  return typeof handle?.setNoDelay === "function" && handle.setNoDelay(true) === 0;
}

function closeServer(server: net.Server | null): Promise<void> {
  return new Promise((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));
}

/** What OpenSSL calls a plain HTTP request (GET …, CONNECT …) where a TLS handshake belongs. */
const PLAIN_HTTP_ON_TLS = new Set(["ERR_SSL_HTTP_REQUEST", "ERR_SSL_HTTPS_PROXY_REQUEST"]);

/** A client socket's errors end it (Node destroys it); there is nobody else to tell. */
const ignoreError = () => {};

/** How long a SOCKS5 connection turned away at the cap may take to read its refusal. */
const SOCKS_REFUSED_LINGER_MS = 2_000;

const peerKey = (socket: Socket) => `${socket.remoteAddress} ${socket.remotePort}`;

/**
 * The gateway's listening sockets: the HTTP proxy (8080), the HTTP proxy inside TLS (8443), SOCKS5
 * and the metrics page. Each accepted connection is counted against the caps and handed to its
 * protocol's front-end; the live ones are kept for shutdown.
 */
export class Listeners {
  private http: net.Server | null = null;
  /** 8080 accepted by the splice addon (nativeFrontDoorAddon), instead of `http`. */
  private httpNative: NativeFrontDoor | null = null;
  private https: tls.Server | null = null;
  private socks: net.Server | null = null;
  /** The SOCKS5 port accepted by the splice addon, instead of `socks`. */
  private socksNative: NativeFrontDoor | null = null;
  private metricsServer: http.Server | null = null;
  readonly clients = new Set<Socket | NativeClient>();
  /** 8443's TCP sockets by peer until TLS is set up over them (Node does not say which TLS
   * socket wraps which TCP socket). */
  private readonly handshaking = new Map<string, Socket>();
  /** The listeners whose accepted sockets have TCP_NODELAY from their listening socket. */
  private readonly noDelayInherited = new Set<Listener>();

  constructor(
    private readonly config: GatewayConfig,
    private readonly deps: SessionDeps,
    private readonly limits: ConnectionLimits,
    private readonly metrics: GatewayMetrics,
  ) {}

  get ports() {
    return {
      http: this.httpNative?.port ?? portOf(this.http),
      https: portOf(this.https),
      socks: this.socksNative?.port ?? (this.socks ? portOf(this.socks) : null),
      metrics: this.metricsServer ? portOf(this.metricsServer) : null,
    };
  }

  /** The ports the splice addon accepts on (the native front door). */
  get nativePorts(): string[] {
    return [...(this.httpNative ? ["http"] : []), ...(this.socksNative ? ["socks"] : [])];
  }

  async listen(tlsPair: { cert: string; key: string }, registry: Registry): Promise<void> {
    const { config } = this;
    const addon = nativeFrontDoorAddon(config, "http");
    if (addon) {
      const at = { host: config.host, port: config.httpPort };
      this.httpNative = await NativeFrontDoor.open(addon, "http", at, (client, head) => {
        if (this.track(client, "http")) serveNativeClient(client, head, this.deps);
      });
      this.noDelayInherited.add("http");
    } else {
      this.http = net.createServer((socket) => {
        if (this.track(socket, "http")) serveClient(socket, this.deps);
      });
      await this.listenOn(this.http, "http", config.httpPort);
    }
    this.https = this.tlsServer(tlsPair);
    await this.listenOn(this.https, "https", config.httpsPort);
    if (config.socksPort !== null) await this.listenSocks(config.socksPort);
    if (config.metricsPort !== null) {
      this.metricsServer = metricsPage(registry);
      await listenOn(this.metricsServer, config.metricsPort, config.host);
    }
  }

  private async listenSocks(port: number): Promise<void> {
    const addon = nativeFrontDoorAddon(this.config, "socks");
    if (addon) {
      const at = { host: this.config.host, port };
      this.socksNative = await NativeFrontDoor.open(addon, "socks", at, (client, head) => {
        if (this.track(client, "socks")) serveNativeSocksClient(client, head, this.deps);
      });
      this.noDelayInherited.add("socks");
      return;
    }
    this.socks = net.createServer((socket) => {
      if (this.track(socket, "socks")) serveSocksClient(socket, this.deps);
    });
    await this.listenOn(this.socks, "socks", port);
  }

  private async listenOn(server: net.Server, listener: Listener, port: number): Promise<void> {
    await listenOn(server, port, this.config.host);
    if (noDelayForAccepted(server)) this.noDelayInherited.add(listener);
  }

  /** A native client handed over to a Node socket is that socket from then on: admission marks it
   * as a customer's, and cutting it cuts the socket. */
  private readonly linkHandedOver = (handed: Socket, client: NativeClient) =>
    this.limits.link(handed, client);

  /** Stops accepting; resolves once every listener has closed (live connections end apart). */
  close(): Promise<void> {
    this.httpNative?.close();
    this.socksNative?.close();
    return Promise.all([this.http, this.https, this.socks, this.metricsServer].map(closeServer)).then(
      () => {},
    );
  }

  /** Counts a new client connection, or turns it away (false) when a connection limit is
   * reached: on 8080 with a 503, on 8443 (before any TLS) by closing it. */
  private track(socket: Socket | NativeClient, listener: Listener): boolean {
    // From the moment it exists: a reset (read ECONNRESET) on a socket nobody listens to for
    // errors is an uncaught exception, and that stops API, dashboard and gateway alike. (A
    // native client listens from its construction.)
    if (!(socket instanceof NativeClient)) socket.on("error", ignoreError);
    // Until its TLS socket is known (limits.link), a TLS connection is cut the way TLS hears of a
    // failed TCP socket, an error on it: destroying the TCP socket under TLS is unsafe.
    const cut = () =>
      listener === "https" ? socket.emit("error", new Error("connection cut")) : socket.destroy();
    const counted = this.limits.admit(socket, cut);
    if (counted && socket instanceof NativeClient) socket.onHandOver = this.linkHandedOver;
    if (!counted) {
      this.metrics.refusals.labels("too_many_connections").inc();
      const refused = socket instanceof NativeClient ? socket.handOver() : socket;
      if (!refused) return false;
      if (listener === "http")
        refuseConnection(refused, new Refusal("too_many_connections", "Too many open connections"));
      // A SOCKS5 client reads the method selection after its greeting: "no acceptable method" is
      // a reason it prints, where a bare close is not.
      else if (listener === "socks")
        closeConnection(
          refused,
          Buffer.from([SOCKS_VERSION, SocksMethod.noneAcceptable]),
          SOCKS_REFUSED_LINGER_MS,
        );
      else cut();
      return false;
    }
    // Every client socket relays small writes as they come (Nagle off), the splice relay too:
    // from its listening socket, or set here.
    if (!this.noDelayInherited.has(listener) && socket instanceof net.Socket) socket.setNoDelay(true);
    const open = this.metrics.openConnectionsOn[listener];
    open.inc();
    this.clients.add(socket);
    socket.once("close", () => {
      this.clients.delete(socket);
      open.dec();
    });
    return true;
  }

  private tlsServer(tlsPair: { cert: string; key: string }): tls.Server {
    const options = {
      ...tlsPair,
      ALPNProtocols: ["http/1.1"],
      handshakeTimeout: this.config.headTimeoutMs,
    };
    const server = tls.createServer(options, (socket) => {
      const tcp = this.handshaking.get(peerKey(socket));
      if (tcp) this.limits.link(socket, tcp);
      serveClient(socket, this.deps);
    });
    // Counted at TCP level so handshakes in progress show up as connections too.
    server.on("connection", (socket: Socket) => {
      if (!this.track(socket, "https")) return;
      const key = peerKey(socket);
      this.handshaking.set(key, socket);
      socket.once("close", () => this.handshaking.delete(key));
    });
    // A failed or timed-out handshake ends the connection. A plain proxy request sent to the TLS
    // port is told so at once, in plain HTTP on the TCP socket under the failed TLS.
    server.on("tlsClientError", (error: NodeJS.ErrnoException, socket) => {
      const tcp = this.handshaking.get(peerKey(socket));
      if (!tcp || !PLAIN_HTTP_ON_TLS.has(error.code ?? "")) {
        socket.destroy();
        return;
      }
      this.metrics.refusals.labels("bad_request").inc();
      const port = this.ports.http;
      refuseConnection(
        tcp,
        new Refusal("bad_request", `This port speaks TLS: send plain proxy requests to port ${port}`),
      );
    });
    return server;
  }
}

/** GET /metrics in Prometheus's text format; anything else is a 404. */
function metricsPage(registry: Registry): http.Server {
  return http.createServer((req, res) => {
    if (req.method === "GET" && req.url === "/metrics") {
      registry.metrics().then(
        (text) => res.writeHead(200, { "Content-Type": registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
      return;
    }
    res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
  });
}
