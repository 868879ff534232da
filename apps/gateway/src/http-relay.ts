import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type net from "node:net";
import type { Logger } from "pino";
import type { Admission } from "./admission.ts";
import type { Flow, Meter } from "./meter.ts";
import type { GatewayMetrics } from "./metrics.ts";
import { Refusal } from "./refusal.ts";
import type { UpstreamAgent, UpstreamRequestArgs } from "./upstream-agent.ts";

/** Headers that describe one hop, not the message: never forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "te",
  "upgrade",
]);

function forwardableHeaders(raw: string[], extraHopHeaders: Set<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || extraHopHeaders.has(lower)) continue;
    out.push(name, raw[i + 1] as string);
  }
  return out;
}

function connectionListed(value: string | string[] | undefined): Set<string> {
  const text = Array.isArray(value) ? value.join(",") : (value ?? "");
  return new Set(
    text
      .split(",")
      .map((token) => token.trim().toLowerCase())
      .filter(Boolean),
  );
}

export interface HttpRelayDeps {
  admission: Admission;
  meter: Meter;
  agent: UpstreamAgent;
  metrics: GatewayMetrics;
  logger: Logger;
  refuse: (res: ServerResponse, refusal: Refusal) => void;
}

/** The flow currently using a kept-alive target socket; its data listener bills that flow. */
const flowOfSocket = new WeakMap<net.Socket, Flow>();

function watchTargetSocket(socket: net.Socket): void {
  socket.on("data", () => flowOfSocket.get(socket)?.poll());
}

/** Absolute-URI requests (`GET http://host/path`): one metered flow per request. */
export function createHttpRelay(deps: HttpRelayDeps) {
  async function relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? "";
    if (!/^http:\/\//i.test(rawUrl)) {
      throw new Refusal(
        "bad_request",
        /^https:\/\//i.test(rawUrl)
          ? "Use CONNECT for https:// destinations"
          : "This is a proxy: send absolute-URI requests (http://host/path) or CONNECT",
      );
    }
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new Refusal("bad_request", "The request URL is not valid");
    }
    const port = url.port === "" ? 80 : Number(url.port);
    const admitted = await deps.admission.admit(req.headers["proxy-authorization"], url.hostname, port);
    if (res.destroyed) return;

    const headers = forwardableHeaders(req.rawHeaders, connectionListed(req.headers.connection));
    if (req.headers.host === undefined) headers.push("Host", url.host);
    let proxyReq: http.ClientRequest | null = null;
    const flow = deps.meter.open(admitted.account, admitted.target.domain, admitted.proxyType, () => {
      proxyReq?.destroy();
      res.destroy();
    });
    deps.metrics.requests.labels("http").inc();
    let targetSocket: net.Socket | null = null;
    const finish = () => {
      flow.finish();
      if (targetSocket && flowOfSocket.get(targetSocket) === flow) flowOfSocket.delete(targetSocket);
    };
    const args: UpstreamRequestArgs = {
      agent: deps.agent,
      host: admitted.target.address,
      port: admitted.target.port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      setHost: false,
      upstream: admitted.upstream,
      target: admitted.target,
      onSocketCreated: watchTargetSocket,
    };
    proxyReq = http.request(args);
    proxyReq.on("socket", (socket: net.Socket) => {
      targetSocket = socket;
      flowOfSocket.set(socket, flow);
      flow.attach(socket);
    });
    proxyReq.on("response", (proxyRes) => {
      const responseHeaders = forwardableHeaders(
        proxyRes.rawHeaders,
        connectionListed(proxyRes.headers.connection),
      );
      proxyRes.on("error", () => res.destroy());
      try {
        res.writeHead(proxyRes.statusCode ?? 502, proxyRes.statusMessage, responseHeaders);
      } catch (error) {
        proxyReq?.destroy();
        const reason = `The destination sent an unusable response: ${(error as Error).message}`;
        deps.refuse(res, new Refusal("upstream_failed", reason));
        return;
      }
      proxyRes.pipe(res);
    });
    proxyReq.on("error", (error) => {
      finish();
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const refusal =
        error instanceof Refusal
          ? error
          : new Refusal("upstream_failed", `The destination failed: ${error.message}`);
      deps.refuse(res, refusal);
    });
    proxyReq.on("close", finish);
    res.on("close", () => {
      if (!res.writableFinished) proxyReq?.destroy();
    });
    // A client that goes away mid-body must not become an unhandled 'error'.
    req.on("error", () => proxyReq?.destroy());
    req.pipe(proxyReq);
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    relay(req, res).catch((error: unknown) => {
      if (error instanceof Refusal) {
        deps.refuse(res, error);
        return;
      }
      deps.logger.error({ err: error }, "plain HTTP relay failed");
      deps.refuse(res, new Refusal("upstream_failed", "The gateway could not relay this request"));
    });
  };
}
