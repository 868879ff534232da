import type { Logger } from "pino";
import type { Admission } from "../admit/admission.ts";
import type { GatewayMetrics } from "../base/metrics.ts";
import type { TargetPool } from "../dial/target-pool.ts";
import type { Meter } from "./meter.ts";
import type { ConnectionOutcomes } from "./outcomes.ts";

/** What every front-end's connections share: the steps after parsing and their figures. */
export interface SessionDeps {
  admission: Admission;
  meter: Meter;
  pool: TargetPool;
  metrics: GatewayMetrics;
  logger: Logger;
  /** How connections to each domain end, per proxy type (the Intelligence learner reads them). */
  outcomes: ConnectionOutcomes;
  /** Time for a whole request head, counted from its first byte (the first head: from accept). */
  headTimeoutMs: number;
  /** A CA trusted besides Node's roots for `https://` sites in absolute form. */
  originCa?: string;
}
