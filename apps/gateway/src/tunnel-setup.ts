import type { Duplex } from "node:stream";
import type { Admitted } from "./admission.ts";
import type { Flow } from "./meter.ts";
import type { SessionDeps } from "./session-deps.ts";
import { SocketReader } from "./socket-reader.ts";
import { splice } from "./tunnel.ts";

/** The meter flow of one request or tunnel of `client`, counted by kind. Cutting it (its balance
 * or limit spent, its credential revoked) ends the client connection and the target socket the
 * flow reads. */
export function openFlow(
  client: Duplex,
  admitted: Admitted,
  deps: Pick<SessionDeps, "meter" | "metrics">,
  kind: "http" | "connect",
): Flow {
  const flow = deps.meter.open(
    admitted.account,
    admitted.target.domain,
    admitted.proxyType,
    admitted.exit,
    () => {
      client.destroy();
      flow.currentSocket?.destroy();
    },
  );
  deps.metrics.requests.labels(kind).inc();
  return flow;
}

/**
 * The steps every tunnel takes once it is admitted, whatever protocol asked for it (HTTP
 * CONNECT, SOCKS5): dial the exit (its outcome recorded), open the meter flow, tell the client
 * it is established (`established` writes the front-end's own answer), and relay until both
 * sides are done. `reader` holds what the client sent past its request.
 */
export async function openTunnel(
  client: Duplex,
  reader: SocketReader,
  admitted: Admitted,
  deps: Pick<SessionDeps, "outcomes" | "meter" | "metrics">,
  established: () => void,
): Promise<void> {
  const dialed = await deps.outcomes.dialTunnel(admitted);
  const target = dialed.socket;
  if (client.destroyed) {
    target.destroy();
    return;
  }
  target.setNoDelay(true);
  const flow = openFlow(client, admitted, deps, "connect");
  flow.attach(dialed);
  deps.metrics.openTunnels.inc();
  established();
  splice(client, reader.detach(), target, new SocketReader(target, dialed.reads), flow, () =>
    deps.metrics.openTunnels.dec(),
  );
}
