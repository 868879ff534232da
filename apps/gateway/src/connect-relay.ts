import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import type { Admission } from "./admission.ts";
import { dial } from "./dial.ts";
import type { Meter } from "./meter.ts";
import type { GatewayMetrics } from "./metrics.ts";
import { Refusal } from "./refusal.ts";

export interface ConnectRelayDeps {
  admission: Admission;
  meter: Meter;
  metrics: GatewayMetrics;
  logger: Logger;
  refuse: (socket: Duplex, refusal: Refusal) => void;
}

/** `host:port` or `[v6]:port`. */
function parseAuthority(authority: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (!match) throw new Refusal("bad_request", "CONNECT needs host:port");
  return { host: match[1] as string, port: Number(match[2]) };
}

/** A side that finished cleanly gets `end()` on the other (pending bytes still flow); if that
 * side never closes on its own it is cut after this long. */
const HALF_CLOSE_LINGER_MS = 10_000;

/** CONNECT tunnels: one metered flow per tunnel, read live on every chunk. */
export function createConnectRelay(deps: ConnectRelayDeps) {
  async function relay(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const { host, port } = parseAuthority(req.url ?? "");
    const admitted = await deps.admission.admit(req.headers["proxy-authorization"], host, port);
    if (client.destroyed) return;
    const target = await dial(admitted.upstream, admitted.target);
    if (client.destroyed) {
      target.destroy();
      return;
    }
    target.setNoDelay(true);
    const flow = deps.meter.open(admitted.account, admitted.target.domain, admitted.proxyType, () => {
      client.destroy();
      target.destroy();
    });
    flow.attach(target);
    deps.metrics.requests.labels("connect").inc();
    deps.metrics.openTunnels.inc();

    let closed = 0;
    const onClosed = (other: Duplex) => () => {
      closed += 1;
      if (closed === 2) {
        flow.finish();
        deps.metrics.openTunnels.dec();
        return;
      }
      other.end();
      setTimeout(() => other.destroy(), HALF_CLOSE_LINGER_MS).unref();
    };
    target.on("close", onClosed(client));
    client.on("close", onClosed(target));
    target.on("error", () => client.destroy());
    client.on("error", () => target.destroy());

    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) target.write(head);
    target.pipe(client);
    client.pipe(target);
    // Registered after the pipes so each poll already sees the chunk just written.
    target.on("data", () => flow.poll());
    client.on("data", () => flow.poll());
  }

  return (req: IncomingMessage, client: Duplex, head: Buffer): void => {
    client.on("error", () => {});
    relay(req, client, head).catch((error: unknown) => {
      if (error instanceof Refusal) {
        deps.refuse(client, error);
        return;
      }
      deps.logger.error({ err: error }, "CONNECT relay failed");
      deps.refuse(client, new Refusal("upstream_failed", "The gateway could not open this tunnel"));
    });
  };
}
