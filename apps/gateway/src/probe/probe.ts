import { Duplex } from "node:stream";
import tls from "node:tls";
import type { Database } from "@bytetoll/db";
import {
  DialFailure,
  EgressGuard,
  fillTemplate,
  type GatewayConfig,
  gatewayOwnPorts,
  type ProbeResponse,
  type ProbeScheme,
  type Probes,
} from "@bytetoll/egress";
import type { Logger } from "pino";
import type { ProxyType } from "../base/tariff.ts";
import { carriesAbsoluteForm, dial, proxyAuthorization, reachExit, type TargetSocket } from "../dial/dial.ts";
import { ConsoleExits } from "../route/console-exits.ts";
import type { DestinationPolicy } from "../route/destination-policy.ts";
import { UpstreamPool } from "../route/upstream-pool.ts";

/** How much of a body a probe keeps (ProbeResponse.body). */
const MAX_BODY = 512 * 1024;
const USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** A dialed target socket as a plain stream: sockets dialed with shared reads hand their bytes
 * to a sink instead of emitting them, so they are copied into this stream's buffer. */
function streamOf({ socket, reads }: TargetSocket): Duplex {
  if (!reads) return socket;
  const stream = new Duplex({
    read: () => socket.resume(),
    write: (chunk, _encoding, done) => socket.write(chunk, done),
    final: (done) => {
      socket.end();
      done();
    },
    destroy: (error, done) => {
      socket.destroy();
      done(error);
    },
  });
  for (const early of reads.early.splice(0)) stream.push(early);
  reads.sink = (data) => stream.push(Buffer.from(data));
  socket.on("end", () => stream.push(null));
  socket.on("error", (error) => stream.destroy(error));
  socket.on("close", () => stream.push(null));
  return stream;
}

function secure(stream: Duplex, host: string, ca: string | undefined): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      socket: stream,
      servername: host,
      ALPNProtocols: ["http/1.1"],
      ca: ca === undefined ? undefined : [...tls.rootCertificates, ca],
    });
    socket.once("secureConnect", () => {
      socket.removeListener("error", reject);
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

/** Head and body of a raw HTTP/1.x response; chunked bodies are decoded as far as they arrived. */
function parseResponse(raw: Buffer): Pick<ProbeResponse, "status" | "headers" | "body" | "bytes"> {
  const end = raw.indexOf("\r\n\r\n");
  const head = raw.subarray(0, end === -1 ? raw.length : end).toString("latin1");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = end === -1 ? Buffer.alloc(0) : raw.subarray(end + 4);
  if (/chunked/i.test(headers["transfer-encoding"] ?? "")) body = dechunk(body);
  return { status: status ? Number(status) : null, headers, body, bytes: body.length };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd === -1) break;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (!Number.isFinite(size) || size <= 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function readAll(stream: Duplex, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      clearTimeout(timer);
      stream.destroy();
      resolve(Buffer.concat(chunks));
    };
    const timer = setTimeout(
      () => (size > 0 ? finish() : reject(new Error("timeout: no answer"))),
      timeoutMs,
    );
    stream.on("data", (chunk: Buffer) => {
      chunks.push(Buffer.from(chunk));
      size += chunk.length;
      if (size > MAX_BODY) finish();
    });
    stream.once("end", finish);
    stream.once("close", finish);
    stream.once("error", (error) => {
      clearTimeout(timer);
      if (size > 0) finish();
      else reject(error);
    });
  });
}

/**
 * Fetches front pages the way customer traffic would go: the destination vetted by the same
 * egress guard, the socket dialed through the same upstream pools. Nothing passes the meter, so
 * a probe is never billed to anyone.
 */
export class Prober implements Probes {
  private readonly guard: EgressGuard;
  private readonly pools: Record<ProxyType, UpstreamPool>;

  private readonly timeoutMs: number;
  private readonly targetCa: string | undefined;
  private readonly destinations: DestinationPolicy | null;

  /** `targetCa`: PEM certificates trusted for sites besides Node's bundled roots (test sites on a
   * private CA); a site's certificate is verified either way, as a browser would. `destinations`:
   * the operator's destination rules, whose global ones a probe obeys as customer traffic does. */
  private readonly trust: { ca?: string };

  constructor(
    config: GatewayConfig,
    options: { timeoutMs?: number; targetCa?: string; destinations?: DestinationPolicy } = {},
  ) {
    this.trust = config.upstreamCa === undefined ? {} : { ca: config.upstreamCa };
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.targetCa = options.targetCa;
    this.destinations = options.destinations ?? null;
    this.guard = new EgressGuard({
      allow: config.egressAllow,
      allowTargets: config.egressAllowTargets,
      resolveHost: config.resolveHost,
      ownPorts: () => gatewayOwnPorts(config),
    });
    this.pools = {
      mobile: new UpstreamPool("mobile", config.mobileUpstreams, undefined, undefined, reachExit),
      dc: new UpstreamPool("dc", config.datacenterUpstreams, undefined, undefined, reachExit),
    };
  }

  /** Adds the console's exits to the pools and keeps them in step as the gateways do (change
   * feed, and every few seconds), so probes go where customer traffic goes. Returns the stop. */
  async followConsoleExits(
    database: Database,
    key: Buffer | null,
    logger: Pick<Logger, "warn" | "error">,
  ): Promise<() => Promise<void>> {
    const exits = new ConsoleExits({ database, pools: this.pools, key, trust: this.trust, logger });
    await exits.start();
    return () => exits.stop();
  }

  /** `path`: what to GET (a front page: "/"). */
  async fetch(
    pool: ProxyType,
    scheme: ProbeScheme,
    host: string,
    port: number,
    path = "/",
  ): Promise<ProbeResponse> {
    const failed = (error: string): ProbeResponse => ({
      status: null,
      headers: {},
      body: Buffer.alloc(0),
      bytes: 0,
      error,
    });
    let target: Awaited<ReturnType<EgressGuard["vet"]>>;
    try {
      // Before the guard resolves the name, as for customers.
      this.destinations?.check(null, null, this.guard.nameOf(host), port);
      target = await this.guard.vet(host, port);
    } catch (error) {
      return failed(`forbidden: ${(error as Error).message}`);
    }
    const exit = this.pools[pool].pick();
    const upstream = fillTemplate(exit.spec, {
      country: undefined,
      city: undefined,
      session: undefined,
      sessionMinutes: 10,
    });
    // Plain HTTP through an HTTP(S) upstream goes in absolute form, as customers' does: squid and
    // tinyproxy refuse CONNECT to port 80, which would make every site behind them look blocked.
    const absolute = scheme === "http" && carriesAbsoluteForm(upstream);
    let stream: Duplex;
    try {
      stream = streamOf(await dial({ upstream, target, exit }, absolute ? "plain-http" : "tunnel"));
    } catch (error) {
      const exitsFault = error instanceof DialFailure && error.exitsFault;
      return failed(`${exitsFault ? "exit" : "connect"}: ${(error as Error).message}`);
    }
    try {
      if (scheme === "https") stream = await secure(stream, host, this.targetCa);
    } catch (error) {
      stream.destroy();
      return failed(`tls: ${(error as Error).message}`);
    }
    const authority = port === (scheme === "https" ? 443 : 80) ? host : `${host}:${port}`;
    const requestTarget = absolute ? `http://${authority}${path}` : path;
    stream.write(
      `GET ${requestTarget} HTTP/1.1\r\nHost: ${authority}\r\n${absolute ? proxyAuthorization(upstream) : ""}` +
        `User-Agent: ${USER_AGENT}\r\n` +
        "Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8\r\nAccept-Encoding: identity\r\n" +
        "Connection: close\r\n\r\n",
    );
    try {
      const raw = await readAll(stream, this.timeoutMs);
      const response = parseResponse(raw);
      return { ...response, error: response.status === null ? "connect: no HTTP answer" : null };
    } catch (error) {
      const message = (error as Error).message;
      return failed(message.startsWith("timeout") ? message : `connect: ${message}`);
    }
  }
}
