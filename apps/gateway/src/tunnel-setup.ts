import type net from "node:net";
import type { Duplex } from "node:stream";
import type { AccountBalance } from "./account-balance.ts";
import type { Admitted } from "./admission.ts";
import { type DialMode, dial, dialTunnel, type TargetSocket, type TargetStream } from "./dial.ts";
import type { Flow } from "./meter.ts";
import { dialsNatively, NativeTarget } from "./native-splice.ts";
import { Refusal } from "./refusal.ts";
import type { SessionDeps } from "./session-deps.ts";
import { SocketReader } from "./socket-reader.ts";
import { SubuserAllowance } from "./subuser-allowance.ts";
import { splice } from "./tunnel.ts";

/** How far a plain request's response has gone to the client. */
export interface ResponseProgress {
  headSent: boolean;
  /** Its body ends with the connection: a cut cannot be told from the end but by a reset. */
  closeDelimited: boolean;
}

/** Why an account's flow is cut, when a client can be told: its balance, or its sub-user's
 * limit, ran out (a disabled account's connections are simply closed). */
function cutCause(account: AccountBalance): Refusal | null {
  if (account.disabled) return null;
  if (account instanceof SubuserAllowance && account.exhausted() && !account.owner.exhausted()) {
    return new Refusal(
      "subuser_limit_reached",
      "This sub-user's data limit for the period was reached during the request",
    );
  }
  const owner = account instanceof SubuserAllowance ? account.owner : account;
  if (!owner.exhausted()) return null;
  return new Refusal(
    "balance_exhausted",
    "Your data balance ran out during the request: add data to continue",
  );
}

/** Ends a client connection with a TCP reset instead of a FIN: a body that ends with the
 * connection would otherwise look complete (a TLS client socket cannot be reset; it is closed). */
function resetClient(client: Duplex): void {
  try {
    (client as net.Socket).resetAndDestroy();
  } catch {
    client.destroy();
  }
}

/**
 * The meter flow of one request or tunnel of `client`, counted by kind. Cutting it (its balance
 * or limit spent, its credential revoked) ends the target socket the flow reads and, mostly,
 * the client connection. A balance that runs out is logged, and said where HTTP allows it: a
 * plain request whose response has not started (`progress`) is answered 402 by its own path;
 * a response body framed by length or chunks just stops short (the client sees it is
 * incomplete); one that ends with the connection is reset.
 */
export function openFlow(
  client: Duplex,
  admitted: Admitted,
  deps: Pick<SessionDeps, "meter" | "metrics" | "logger">,
  kind: "http" | "connect",
  progress?: ResponseProgress,
): Flow {
  const flow = deps.meter.open(
    admitted.account,
    admitted.target.domain,
    admitted.proxyType,
    admitted.exit,
    () => {
      const cause = cutCause(admitted.account);
      flow.cutCause = cause;
      if (cause) {
        const { userId } = admitted.account;
        const answered = progress && !progress.headSent ? "answered" : "cut";
        deps.logger.info(
          { userId, domain: admitted.target.domain, kind, reason: cause.code, client: answered },
          "data ran out mid-transfer",
        );
      }
      if (cause && progress && !progress.headSent) {
        flow.currentSocket?.destroy();
        return;
      }
      if (cause && progress?.closeDelimited) resetClient(client);
      else client.destroy();
      flow.currentSocket?.destroy();
    },
  );
  deps.metrics.requests.labels(kind).inc();
  return flow;
}

/** The dial step: the chosen exit, then the target through it (a failure is a DialFailure
 * saying whose fault it was; the caller records it as an outcome). */
export function dialTarget(admitted: Admitted, mode: DialMode = "tunnel"): Promise<TargetSocket> {
  return dial(admitted.upstream, admitted.target, admitted.exit, mode);
}

/**
 * The steps every tunnel takes once it is admitted and routed, whatever protocol asked for it
 * (HTTP CONNECT, SOCKS5): dial → meter → relay, its outcome recorded at the end. `answer` is the
 * front-end's own reply, sent once the target is reached. `reader` holds what the client sent
 * past its request. A tunnel to a direct exit that will be spliced from its first byte is
 * dialled by the splice addon: its target never becomes a Node socket.
 */
export async function openTunnel(
  client: Duplex,
  reader: SocketReader,
  admitted: Admitted,
  deps: Pick<SessionDeps, "outcomes" | "meter" | "metrics" | "logger">,
  answer: Buffer,
): Promise<void> {
  let dialed: TargetSocket<TargetStream>;
  try {
    dialed = await dialTunnel(admitted.upstream, admitted.target, admitted.exit, dialsNatively(client));
  } catch (error) {
    deps.outcomes.failed(admitted, error);
    throw error;
  }
  const target = dialed.socket;
  if (client.destroyed) {
    target.destroy();
    return;
  }
  deps.outcomes.tunnelOpened(admitted, dialed);
  // The dial set TCP_NODELAY already (once per socket: a second setsockopt per tunnel is waste).
  const flow = openFlow(client, admitted, deps, "connect");
  flow.attach(dialed);
  deps.metrics.openTunnels.inc();
  const targetReader = target instanceof NativeTarget ? null : new SocketReader(target, dialed.reads);
  splice(client, reader.detach(), answer, target, targetReader, flow, () => deps.metrics.openTunnels.dec());
}
