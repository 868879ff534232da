import { DataDirInUseError, openDatabase } from "@bytetoll/db";
import { pino } from "pino";
import { ConfigError, gatewayConfigFrom, parseGatewayEnv } from "./config.ts";
import { createGateway } from "./gateway.ts";

const logger = pino({ name: "gateway" });

/** Closes the gateway and its database; replaced once they are open. */
let shutdown = async () => {};
// A rejection nobody handled is one connection's bug: log it with its stack, keep proxying. An
// uncaught exception may have left any state half-changed: log it, close within 10 s, exit 1.
process.on("unhandledRejection", (reason) => {
  logger.error({ err: reason }, "unhandled promise rejection (the gateway keeps serving)");
});
process.on("uncaughtException", (error) => {
  logger.fatal({ err: error }, "uncaught exception: shutting down");
  setTimeout(() => process.exit(1), 10_000).unref();
  shutdown().finally(() => process.exit(1));
});

async function main(): Promise<void> {
  const env = parseGatewayEnv(process.env);
  const config = gatewayConfigFrom(env);
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: config.dataDir });
  const gateway = createGateway({ database, config, logger });
  await gateway.listen();
  let closing: Promise<void> | undefined;
  shutdown = () => {
    closing ??= gateway.close().then(() => database.close());
    return closing;
  };
  const stop = async (signal: string) => {
    logger.info({ signal }, "stopping gateway");
    await shutdown();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
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
