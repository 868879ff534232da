import { existsSync, readFileSync } from "node:fs";
import { openDatabase } from "@bytetoll/db";
import { pino } from "pino";
import { ConfigError, loadGatewayConfig } from "./config.ts";
import { createGateway } from "./gateway.ts";

/** GATEWAY_TLS_CERT/_KEY may hold the PEM itself or a path to it. */
function pem(value: string): string {
  return value.includes("-----BEGIN") || !existsSync(value) ? value : readFileSync(value, "utf8");
}

const logger = pino({ name: "gateway" });

async function main(): Promise<void> {
  const config = loadGatewayConfig(process.env);
  if (config.tls) config.tls = { cert: pem(config.tls.cert), key: pem(config.tls.key) };
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: process.env.DATABASE_URL ? undefined : (process.env.DATA_DIR ?? "./data"),
  });
  const gateway = createGateway({ database, config, logger });
  await gateway.listen();
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping gateway");
    await gateway.close();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    logger.fatal(error.message);
  } else {
    logger.fatal({ err: error }, "gateway failed to start");
  }
  process.exit(1);
});
