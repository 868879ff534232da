import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestDatabase } from "@bytetoll/db/testing";
import type { GatewayConfig } from "@bytetoll/egress";
import { startGatewayProcess } from "./gateway-process.ts";
import { startGateway } from "./harness.ts";

/** What a test needs of a gateway, whether it runs in the test's process or as the standalone
 * gateway with workers. */
export interface GatewayUnderTest {
  readonly httpPort: number;
  readonly httpsPort: number;
  readonly metricsPort: number | null;
  /** Commits what was metered; true when every process did. */
  flush(): Promise<boolean>;
  /** Flushes, then the bytes each gateway process metered since it started (one entry per
   * worker). */
  meteredByWorker(): Promise<number[]>;
  close(): Promise<void>;
}

export interface GatewayMode {
  name: string;
  /** Worker processes behind the ports (0: the gateway runs in the test's process). */
  workers: number;
  /** The mode cannot run here (workers need PostgreSQL: the embedded database serves one
   * process). */
  skip: boolean;
  /** `inProcess`: settings only the in-process gateway takes (a test resolver); tests that need
   * them skip the other modes. */
  start(database: TestDatabase, inProcess?: Partial<GatewayConfig>): Promise<GatewayUnderTest>;
}

/**
 * The gateway in the test's process, and — with DATABASE_URL set — the standalone gateway as
 * production runs it with GATEWAY_WORKERS=2 (main.ts in a process of its own, two workers behind
 * the same ports). A suite run over both checks that workers meter and bill exactly as one
 * process does. The workers get their connections in turn from the primary
 * (NODE_CLUSTER_SCHED_POLICY=rr, the operator's other choice in decision 028, served by Node's
 * cluster listener): when each accepts for itself from the shared socket (the default, natively
 * when the splice addon is built, which workers.test.ts runs), one of them often takes ten
 * connections in a row, and a suite's few connections could all land on one worker.
 */
export const gatewayModes: GatewayMode[] = [
  {
    name: "one process",
    workers: 0,
    skip: false,
    async start(database, inProcess = {}) {
      const gateway = await startGateway(database, inProcess);
      return {
        get httpPort() {
          return gateway.httpPort;
        },
        get httpsPort() {
          return gateway.httpsPort;
        },
        get metricsPort() {
          return gateway.metricsPort;
        },
        flush: () => gateway.flush(),
        meteredByWorker: async () => {
          await gateway.flush();
          return [gateway.meteredBytes];
        },
        close: () => gateway.close(),
      };
    },
  },
  {
    name: "two workers (GATEWAY_WORKERS=2)",
    workers: 2,
    skip: !process.env.DATABASE_URL,
    async start(database) {
      const dataDir = mkdtempSync(join(tmpdir(), "bytetoll-gateway-workers-"));
      const gateway = await startGatewayProcess(database, {
        GATEWAY_WORKERS: "2",
        DATA_DIR: dataDir,
        NODE_CLUSTER_SCHED_POLICY: "rr",
      });
      return {
        httpPort: gateway.httpPort,
        httpsPort: gateway.httpsPort,
        metricsPort: gateway.metricsPort,
        flush: () => gateway.flush(),
        meteredByWorker: () => gateway.meteredByWorker(),
        async close() {
          await gateway.close();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];
