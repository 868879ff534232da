import { Refusal } from "@bytetoll/egress";
import type { AccountBalance } from "../admit/account-balance.ts";
import { SubuserAllowance } from "../admit/subuser-allowance.ts";
import { resetConnection } from "../base/connection-reset.ts";
import { SocketReader } from "../base/socket-reader.ts";
import { dial } from "../dial/dial.ts";
import { dialsNatively, NativeTarget } from "../dial/native-splice.ts";
import type { Flow } from "./meter.ts";
import type { SessionDeps } from "./session-deps.ts";
import { splice } from "./tunnel.ts";
import type { TunnelContext } from "./tunnel-context.ts";

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

/**
 * The meter flow of one request or tunnel (`tunnel.flow` from then on), counted by its kind. Cutting it (its balance
 * or limit spent, its credential revoked) ends the target socket the flow reads and, mostly,
 * the client connection. A balance that runs out is logged, and said where HTTP allows it: a
 * plain request whose response has not started (`progress`) is answered 402 by its own path;
 * a response body framed by length or chunks just stops short (the client sees it is
 * incomplete); a tunnel, and a body that ends with the connection, are reset, whatever the cut's
 * reason (balance, limit, revocation, shutdown), so no client takes them for complete.
 */
export function openFlow(
  tunnel: TunnelContext,
  deps: Pick<SessionDeps, "meter" | "metrics" | "logger">,
  progress?: ResponseProgress,
): Flow {
  const { client, kind } = tunnel;
  const flow = deps.meter.open(tunnel, () => {
    const cause = cutCause(tunnel.account);
    flow.cutCause = cause;
    if (cause) {
      const { userId } = tunnel.account;
      const answered = progress && !progress.headSent ? "answered" : "cut";
      const ms = Math.round(performance.now() - tunnel.startedAt);
      deps.logger.info(
        { userId, domain: tunnel.target.domain, kind, reason: cause.code, client: answered, ms },
        "data ran out mid-transfer",
      );
    }
    if (cause && progress && !progress.headSent) {
      flow.currentSocket?.destroy();
      return;
    }
    if (!progress || progress.closeDelimited) resetConnection(client);
    else client.destroy();
    flow.currentSocket?.destroy();
  });
  tunnel.flow = flow;
  deps.metrics.requestsOf[kind].inc();
  return flow;
}

/**
 * The steps every tunnel takes once it is admitted and routed, whatever protocol asked for it
 * (HTTP CONNECT, SOCKS5): dial → meter → relay, its outcome recorded at the end. `answer` is the
 * front-end's own reply, sent once the target is reached. `reader` holds what the client sent
 * past its request. A tunnel to a direct exit that will be spliced from its first byte is
 * dialled by the splice addon: its target never becomes a Node socket.
 */
export async function openTunnel(
  tunnel: TunnelContext,
  reader: Pick<SocketReader, "detach">,
  deps: Pick<SessionDeps, "outcomes" | "meter" | "metrics" | "logger">,
  answer: Buffer,
): Promise<void> {
  const { client } = tunnel;
  try {
    tunnel.targetSocket = await dial(tunnel, dialsNatively(client) ? "native-tunnel" : "tunnel");
  } catch (error) {
    deps.outcomes.failed(tunnel, error);
    throw error;
  }
  const dialed = tunnel.targetSocket;
  const target = dialed.socket;
  if (client.destroyed) {
    target.destroy();
    return;
  }
  deps.outcomes.tunnelOpened(tunnel);
  // The dial set TCP_NODELAY already (once per socket: a second setsockopt per tunnel is waste).
  const flow = openFlow(tunnel, deps);
  flow.attach(dialed);
  deps.metrics.openTunnels.inc();
  const targetReader = target instanceof NativeTarget ? null : new SocketReader(target, dialed.reads);
  splice(tunnel, reader.detach(), answer, target, targetReader, () => deps.metrics.openTunnels.dec());
}
