import path from "node:path";
import { DataDirInUseError, openDatabase } from "@bytetoll/db";
import { ConfigError, loadConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { createAdminService } from "../modules/admin/index.ts";
import { createDealsService } from "../modules/deals/index.ts";
import { issuerOf, orderPublisher } from "../modules/orders/index.ts";
import { createSettlement } from "../modules/payments/index.ts";
import { createDetachedPublisher } from "../plugins/realtime-emitter.ts";
import { runAdminCommand, USAGE, UsageError } from "./admin-commands.ts";

/** `npm run admin -- …`: the operator's commands, on the same database as the server. */
async function main(argv: string[]): Promise<number> {
  const config = loadConfig(process.env);
  // On the embedded database the server holds DATA_DIR's lock while it runs: refused here then.
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : path.join(config.DATA_DIR, "pglite"),
    maxConnections: 2,
  }).catch((error: unknown) => {
    if (!(error instanceof DataDirInUseError)) throw error;
    console.error(
      `DATA_DIR ${config.DATA_DIR} is in use by process ${error.pid} (the server?): the embedded database (no DATABASE_URL) allows one process at a time.\n` +
        "Stop the server first, or while it runs use the admin API (ADMIN_TOKEN) or POST /dev/orders/{id}/pay.",
    );
    return null;
  });
  if (!database) return 1;
  const publisher = config.REDIS_URL ? createDetachedPublisher(config.REDIS_URL) : null;
  try {
    const deals = createDealsService({
      database,
      publish: (deal) => publisher?.deal(deal),
      listPricePerGbUsd: config.PRICE_PER_GB_USD,
    });
    const output = await runAdminCommand(argv, {
      config,
      admin: createAdminService(database),
      settlement: createSettlement({
        database,
        publishOrder: orderPublisher((order) => publisher?.order(order)),
        deals,
        issuer: issuerOf(config),
      }),
      deals,
    });
    console.log(JSON.stringify(output, null, 2));
    return 0;
  } finally {
    await publisher?.close();
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(error.message ? `${error.message}\n\n${USAGE}` : USAGE);
      process.exit(2);
    }
    if (error instanceof ConfigError || error instanceof AppError) {
      console.error(error.message);
      process.exit(1);
    }
    console.error(error);
    process.exit(1);
  },
);
