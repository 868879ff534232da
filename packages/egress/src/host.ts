import type { Database } from "@bytetoll/db";
import type { Logger } from "pino";
import type { GatewayConfig } from "./config.ts";
import type { Probes } from "./probes.ts";

/** A gateway running inside another process (`npm start` runs one beside the API). */
export interface HostedGateway {
  listen(): Promise<void>;
  /** Lets tunnels finish and flushes their usage. */
  close(): Promise<void>;
  readonly httpPort: number;
  readonly httpsPort: number;
  readonly socksPort: number | null;
  /** Prometheus metrics, for a host that serves /metrics itself. */
  readonly metricsRegistry: { readonly contentType: string; metrics(): Promise<string> };
}

/** The learner's probes, and how to stop the feeds they follow. */
export interface LearnerProbes {
  probes: Probes;
  stop(): Promise<void>;
}

/**
 * What the API server asks of the gateway app. The server names no gateway code: whoever
 * assembles the process (apps/launcher for `npm start`, the server's test helpers) hands it the
 * gateway's implementation.
 */
export interface GatewayHost {
  createGateway(options: { database: Database; config: GatewayConfig; logger: Logger }): HostedGateway;
  /** Probes through the pools `config` describes and the console's exits (opened with
   * `consoleExitsKey`), refused where the operator's global destination rules refuse, as
   * customer traffic is. */
  startLearnerProbes(options: {
    database: Database;
    config: GatewayConfig;
    logger: Pick<Logger, "warn" | "error">;
    consoleExitsKey: Buffer | null;
  }): Promise<LearnerProbes>;
  /** Probes through `config`'s exits alone, nothing followed (the console's test of one exit). */
  exitProbes(config: GatewayConfig, timeoutMs: number): Probes;
}
