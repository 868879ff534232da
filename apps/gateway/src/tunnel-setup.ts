import type { Duplex } from "node:stream";
import type { Admitted } from "./admission.ts";
import type { SessionDeps } from "./session-deps.ts";
import { SocketReader } from "./socket-reader.ts";
import { splice } from "./tunnel.ts";

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
  const flow = deps.meter.open(
    admitted.account,
    admitted.target.domain,
    admitted.proxyType,
    admitted.exit,
    () => {
      client.destroy();
      target.destroy();
    },
  );
  flow.attach(dialed);
  deps.metrics.requests.labels("connect").inc();
  deps.metrics.openTunnels.inc();
  established();
  splice(client, reader.detach(), target, new SocketReader(target, dialed.reads), flow, () =>
    deps.metrics.openTunnels.dec(),
  );
}
