import path from "node:path";
import { parseArgs } from "node:util";
import { emailSchema } from "@bytetoll/contracts";
import { openDatabase } from "@bytetoll/db";
import { loadConfig } from "../config.ts";
import { insertGeneratedUsage } from "./usage-generator.ts";

const USAGE = `npm run seed:usage -- --email <address> [--days 730] [--domains 2000] [--rows N] [--seed N]

Fills an account (created if new) with realistic usage rollups: weekly rhythm, Zipf-distributed
domains, a mobile/datacenter mix. Rows add up with what is already there, as the gateway's do.
Uses DATABASE_URL, else the embedded database in DATA_DIR (default ./data) — stop \`npm start\`
first in that case: the embedded database has one writer.`;

function positiveInteger(name: string, raw: string | undefined, fallback: number | undefined, max: number) {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`--${name} must be a whole number from 1 to ${max}, got "${raw}"`);
  }
  return value;
}

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      days: { type: "string" },
      domains: { type: "string" },
      rows: { type: "string" },
      seed: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const email = emailSchema.safeParse(values.email ?? "");
  if (!email.success) throw new Error(`--email: ${email.error.issues[0]?.message}\n\n${USAGE}`);
  const days = positiveInteger("days", values.days, 730, 3660)!;
  const domains = positiveInteger("domains", values.domains, 2000, 100_000)!;
  const targetRows = positiveInteger("rows", values.rows, undefined, 50_000_000);
  const seed = positiveInteger("seed", values.seed, undefined, 2 ** 31);

  // The server's own reading of DATABASE_URL and DATA_DIR, so both open the same database.
  const config = loadConfig(process.env);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : path.join(config.DATA_DIR, "pglite"),
  });
  try {
    const [user] = await database.query<{ id: string }>(
      `INSERT INTO users (email) VALUES ($1)
       ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email RETURNING id`,
      [email.data],
    );
    const started = Date.now();
    const written = await insertGeneratedUsage(
      database,
      { userId: user!.id, days, domains, targetRows, seed },
      (rows) => {
        if (process.stdout.isTTY) process.stdout.write(`\r${rows.toLocaleString("en-US")} rows`);
      },
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `${process.stdout.isTTY ? "\r" : ""}Seeded ${written.toLocaleString("en-US")} rollup rows for ${email.data} in ${seconds} s.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
