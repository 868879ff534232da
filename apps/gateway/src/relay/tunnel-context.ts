import type { UpstreamSpec, VettedTarget } from "@bytetoll/egress";
import type { AccountBalance } from "../admit/account-balance.ts";
import type { Admitted } from "../admit/admission.ts";
import { SubuserAllowance } from "../admit/subuser-allowance.ts";
import type { ClientSocket } from "../base/native-socket.ts";
import type { ProxyType } from "../base/tariff.ts";
import type { TargetSocket, TargetStream } from "../dial/dial.ts";
import type { Exit } from "../route/upstream-health.ts";
import type { Flow } from "./meter.ts";

/** How one connection or request to a target ended, as the Intelligence learner counts it. */
export type ConnectionEnd = "ok" | "dial_failure" | "reset" | "tls_cut" | "blocked_status";

/**
 * One tunnel, or one plain request, from its admission to its end, as goproxy's ProxyCtx is one
 * request's: who pays (the account, its sub-user), where it goes (the target, the exit and its
 * upstream), the target connection with its billing cursor, the meter flow, when it was admitted
 * and how it ended. The front-end makes it from the admission's answer; every step after that
 * (dial, meter, relay, outcomes) takes this one value rather than pieces of it.
 */
export class TunnelContext implements Admitted {
  readonly account: AccountBalance;
  /** The sub-user whose credentials were presented (null: the account's own). */
  readonly subuser: SubuserAllowance | null;
  readonly target: VettedTarget;
  readonly proxyType: ProxyType;
  readonly upstream: UpstreamSpec;
  readonly exit: Exit;
  readonly sessionMoved: boolean;
  /** When it was admitted (performance.now()). */
  readonly startedAt = performance.now();
  /** The target connection its bytes are billed from (null until dialled or taken from the pool). */
  targetSocket: TargetSocket<TargetStream> | null = null;
  /** Its meter flow (null until opened: a request refused before reaching a target has none). */
  flow: Flow | null = null;
  /** How it ended, as recorded for the learner (null: not yet, or not recorded). */
  end: ConnectionEnd | null = null;

  constructor(
    /** The client connection it came on. */
    readonly client: ClientSocket,
    readonly kind: "http" | "connect",
    admitted: Admitted,
  ) {
    this.account = admitted.account;
    this.subuser = admitted.account instanceof SubuserAllowance ? admitted.account : null;
    this.target = admitted.target;
    this.proxyType = admitted.proxyType;
    this.upstream = admitted.upstream;
    this.exit = admitted.exit;
    this.sessionMoved = admitted.sessionMoved;
  }
}
