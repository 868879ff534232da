import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import { DataDirInUseError, openDatabase } from "@bytetoll/db";
import {
  ConfigError,
  type GatewayConfig,
  gatewayConfigFrom,
  parseGatewayEnv,
  workerCount,
} from "@bytetoll/egress";
import { pino } from "pino";
import { shareListeningSockets } from "./front/native-listen.ts";
import { createGateway } from "./gateway.ts";
import { answerParent, orphanedStateDirs, runPrimary, workerStateDir } from "./workers.ts";

const logger = pino({ name: "gateway" });

/** Closes the gateway and its database; replaced once they are open. */
let shutdown = async () => {};
// A rejection nobody handled is one connection's bug: log it with its stack, keep proxying. An
// uncaught exception may have left any state half-changed: log it, close within 10 s, exit 1
// (as a worker, the primary starts another, which commits what this one journaled).
process.on("unhandledRejection", (reason) => {
  logger.error({ err: reason }, "unhandled promise rejection (the gateway keeps serving)");
});
process.on("uncaughtException", (error) => {
  logger.fatal({ err: error }, "uncaught exception: shutting down");
  setTimeout(() => process.exit(1), 10_000).unref();
  shutdown().finally(() => process.exit(1));
});

/** One gateway instance in this process: alone, or worker `index` of `workers`. */
async function serve(
  config: GatewayConfig,
  databaseUrl: string | undefined,
  worker: number | null,
  workers: number,
) {
  const dataDir = config.stateDir;
  const instance: GatewayConfig =
    worker === null
      ? { ...config, adoptJournals: dataDir ? orphanedStateDirs(dataDir, null, 1) : [] }
      : {
          ...config,
          // The primary serves /metrics, summed over the workers.
          metricsPort: null,
          stateDir: dataDir === undefined ? undefined : workerStateDir(dataDir, worker),
          adoptJournals: dataDir ? orphanedStateDirs(dataDir, worker, workers) : [],
        };
  const database = await openDatabase({ databaseUrl, dataDir: config.dataDir });
  const gateway = createGateway({
    database,
    config: instance,
    logger: worker === null ? logger : logger.child({ worker }),
  });
  await gateway.listen();
  answerParent(gateway, worker === null ? null : gateway.metricsRegistry);
  let closing: Promise<void> | undefined;
  shutdown = () => {
    closing ??= gateway.close().then(() => database.close());
    return closing;
  };
  const stop = async (signal: string) => {
    logger.info({ signal, worker }, "stopping gateway");
    await shutdown();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

async function main(): Promise<void> {
  const env = parseGatewayEnv(process.env);
  const config = gatewayConfigFrom(env);
  const workers = workerCount(env, availableParallelism());
  if (workers > 1 && cluster.isPrimary) {
    // The ports the native front door serves are listened on here, once, and inherited.
    const shared = shareListeningSockets(config);
    runPrimary({ workers, shared, host: config.host, metricsPort: config.metricsPort, logger });
    return;
  }
  const index = cluster.isWorker ? Number(process.env.GATEWAY_WORKER_INDEX) : null;
  await serve(config, env.DATABASE_URL, index, workers);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    // Said in one line: the operator has something to change, there is no bug to trace.
    logger.fatal(error.message);
  } else {
    logger.fatal({ err: error }, "gateway failed to start");
  }
  process.exit(1);
});
