import net from "node:net";
import tls from "node:tls";
import type { UpstreamSpec } from "@bytetoll/egress";
import { DialFailure, IP_INFO_ADDRESS, IP_INFO_HOST, Refusal } from "@bytetoll/egress";
import { SocksClient } from "socks";
import { SharedReads } from "../base/shared-reads.ts";
import { connectIpInfoAnswer } from "../route/ip-info-answer.ts";
import type { DialObserver } from "../route/upstream-health.ts";
import { connectThroughHttpProxy, proxyAuthorization } from "./http-upstream.ts";
import { connectNatively } from "./native-splice.ts";
import { TargetSocket, type TargetStream } from "./target-socket.ts";

export { TargetSocket, type TargetStream } from "./target-socket.ts";
export { proxyAuthorization };

export interface DialTarget {
  address: string;
  port: number;
}

const CONNECT_TIMEOUT_MS = 10_000;

const upstreamContexts = new Map<string, tls.SecureContext>();

/** Node's bundled roots plus the configured CA, built once per CA text: a context made from a
 * `ca` list on every dial would parse ~140 root certificates each time. */
export function secureContextFor(ca: string): tls.SecureContext {
  let context = upstreamContexts.get(ca);
  if (!context) {
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, ca] });
    upstreamContexts.set(ca, context);
  }
  return context;
}

/** Target sockets, plain TCP and TLS to an https upstream alike, read into the shared buffer
 * (shared-reads.ts; a TLS socket hands it the decrypted bytes). TLS verifies the chain and the
 * host name (default checkServerIdentity; an IP address is checked against the certificate's
 * IP entries). */
function connectTcp(
  host: string,
  port: number,
  secure: { ca: string | undefined } | null,
): Promise<{ socket: net.Socket; reads: SharedReads }> {
  return new Promise((resolve, reject) => {
    const reads = new SharedReads();
    let socket: net.Socket;
    if (secure) {
      // tls.connect hands `onread` to its TLSSocket (lib/_tls_wrap.js); @types/node omits it.
      const options: tls.ConnectionOptions & { onread: net.OnReadOpts } = {
        host,
        port,
        servername: net.isIP(host) ? undefined : host,
        secureContext: secure.ca === undefined ? undefined : secureContextFor(secure.ca),
        onread: reads.onread,
      };
      socket = tls.connect(options);
    } else socket = net.connect({ host, port, onread: reads.onread });
    socket.setNoDelay(true);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    const onTimeout = () => fail(new Error(`connect to ${host}:${port} timed out`));
    socket.setTimeout(CONNECT_TIMEOUT_MS);
    socket.once("timeout", onTimeout);
    socket.once("error", fail);
    socket.once(secure ? "secureConnect" : "connect", () => {
      socket.setTimeout(0);
      socket.removeListener("timeout", onTimeout);
      socket.removeListener("error", fail);
      resolve({ socket, reads });
    });
  });
}

/** How a connection will be used: a tunnel (bytes either way; `native-tunnel`: one the relay
 * splices from its first byte), or plain HTTP requests, which go to an HTTP(S) upstream in
 * absolute form over a connection to the upstream itself. Only tunnels are CONNECTed: proxies
 * such as squid and tinyproxy refuse CONNECT to port 80 by default. */
export type DialMode = "tunnel" | "native-tunnel" | "plain-http";

/** Plain HTTP goes to this upstream itself, in absolute form. */
export function carriesAbsoluteForm(upstream: UpstreamSpec): boolean {
  return upstream.kind === "http" || upstream.kind === "https";
}

async function dialUnchecked(
  upstream: UpstreamSpec,
  target: DialTarget,
  mode: DialMode,
): Promise<TargetSocket> {
  if (upstream.kind === "direct") {
    const { socket, reads } = await connectTcp(target.address, target.port, null);
    return new TargetSocket(socket, reads);
  }
  if (upstream.kind === "socks5") {
    const { socket } = await SocksClient.createConnection({
      proxy: {
        host: upstream.host,
        port: upstream.port,
        type: 5,
        userId: upstream.username,
        password: upstream.password,
      },
      command: "connect",
      destination: { host: target.address, port: target.port },
      timeout: CONNECT_TIMEOUT_MS,
    });
    socket.setNoDelay(true);
    return new TargetSocket(socket, null);
  }
  const connection = await connectTcp(
    upstream.host,
    upstream.port,
    upstream.kind === "https" ? { ca: upstream.ca } : null,
  );
  if (mode === "plain-http") return new TargetSocket(connection.socket, connection.reads);
  try {
    const early = await connectThroughHttpProxy(connection, upstream, target, CONNECT_TIMEOUT_MS);
    return new TargetSocket(connection.socket, connection.reads, early);
  } catch (error) {
    connection.socket.destroy();
    throw error;
  }
}

/** A connection to the exit itself (TCP, and TLS verified as for traffic to an https exit),
 * closed at once: a down exit's retry. */
export async function reachExit(upstream: UpstreamSpec): Promise<void> {
  if (upstream.kind === "direct") return;
  const { socket } = await connectTcp(
    upstream.host,
    upstream.port,
    upstream.kind === "https" ? { ca: upstream.ca } : null,
  );
  socket.destroy();
}

/** dial() failures that come from beyond an upstream proxy (it answered, the target did not):
 * a CONNECT answered with a gateway error (502/503/504: the upstream could not reach the target)
 * or cut, a SOCKS5 server's refusal. Any other failure of a proxied dial is the exit's own: it
 * could not be reached, or it refused the CONNECT itself (403 by its rules, 407 to our account),
 * which says nothing about the site. A direct dial's failures are the target's. */
const EXIT_REACHED =
  /upstream answered CONNECT with 50[234]|upstream closed during CONNECT|upstream CONNECT timed out|Socks5 proxy rejected/i;

/** Whether a failed dial through `upstream` is the exit's own failure, read where the failure is
 * made (the upstream's reply, or the SOCKS client library's message); everything downstream reads
 * DialFailure.exitsFault. */
function isExitFailure(upstream: UpstreamSpec, message: string): boolean {
  return upstream.kind !== "direct" && !EXIT_REACHED.test(message);
}

/** IP_INFO_HOST, answered by the gateway itself: no exit is dialled, so none hears of it. The
 * address it tells is where a direct exit leaves from, so an upstream's traffic is refused it. */
async function dialIpInfoAnswer(upstream: UpstreamSpec): Promise<TargetSocket> {
  if (upstream.kind !== "direct") {
    throw new Refusal(
      "upstream_failed",
      `${IP_INFO_HOST} only tells where direct traffic leaves from: set IPINFO_URL to see ${upstream.id}'s exit`,
    );
  }
  try {
    const { socket, reads } = await connectIpInfoAnswer();
    socket.on("error", () => {});
    return new TargetSocket(socket, reads);
  } catch (error) {
    throw new Refusal("upstream_failed", `The gateway's own IP answer failed: ${(error as Error).message}`);
  }
}

/** Where a dial goes: the exit (`upstream`), the target behind it, and who hears how the dial
 * went (`exit`: the exit's health; an admitted tunnel is one). */
export interface DialRoute {
  upstream: UpstreamSpec;
  target: DialTarget;
  exit?: DialObserver;
}

/**
 * The one way to a target: a socket whose application stream is the target's, direct or
 * tunnelled through the chosen upstream. Any failure becomes a DialFailure saying whose fault it
 * was. The caller attaches its readers in the same tick. `"native-tunnel"`: a tunnel the relay
 * will splice from its first byte, whose target (through a direct exit) the splice addon dials,
 * so it never becomes a Node socket.
 */
export function dial(route: DialRoute, mode?: "tunnel" | "plain-http"): Promise<TargetSocket>;
export function dial(route: DialRoute, mode: DialMode): Promise<TargetSocket<TargetStream>>;
export function dial(
  { upstream, target, exit }: DialRoute,
  mode: DialMode = "tunnel",
): Promise<TargetSocket<TargetStream>> {
  if (target.address === IP_INFO_ADDRESS) return dialIpInfoAnswer(upstream);
  if (mode === "native-tunnel" && upstream.kind === "direct") {
    // Every tunnel's dial: one promise from the connect to the caller, not one per layer.
    const startedAt = performance.now();
    return connectNatively(target.address, target.port, CONNECT_TIMEOUT_MS).then(
      (socket) => {
        exit?.connected(performance.now() - startedAt);
        return new TargetSocket(socket, null);
      },
      (error: unknown) => {
        throw dialFailure(upstream, target, exit, error);
      },
    );
  }
  return observed(upstream, target, exit, async () => {
    const dialed = await dialUnchecked(upstream, target, mode);
    // Whoever uses the socket handles its errors; this keeps a late one from being unhandled.
    dialed.socket.on("error", () => {});
    return dialed;
  });
}

/** Runs a dial for `observer`; any failure becomes a DialFailure saying whose fault it was. */
async function observed<T>(
  upstream: UpstreamSpec,
  target: DialTarget,
  observer: DialObserver | undefined,
  connect: () => Promise<T>,
): Promise<T> {
  const startedAt = performance.now();
  try {
    const dialed = await connect();
    observer?.connected(performance.now() - startedAt);
    return dialed;
  } catch (error) {
    throw dialFailure(upstream, target, observer, error);
  }
}

/** A failed dial as the DialFailure saying whose fault it was; the observer is told. */
function dialFailure(
  upstream: UpstreamSpec,
  target: DialTarget,
  observer: DialObserver | undefined,
  error: unknown,
): DialFailure {
  const exitsFault = isExitFailure(upstream, (error as Error).message);
  observer?.failed(exitsFault);
  return new DialFailure(
    (error as NodeJS.ErrnoException).code === "ECONNREFUSED" ? "dial_refused" : "dial_failed",
    `Could not reach ${target.address}:${target.port} via ${upstream.id}: ${(error as Error).message}`,
    exitsFault,
  );
}
