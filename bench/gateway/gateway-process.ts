import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";
import { applyLedgerEntry, hashSecret, openDatabase, schema } from "@bytetoll/db";
import { defaultGatewayConfig } from "@bytetoll/egress";
import { pino } from "pino";
import { createGateway } from "../../apps/gateway/src/gateway.ts";

/** The gateway under test, alone in its process (as in production), on its own in-memory PGlite
 * with one seeded user; usage is flushed every second as usual. */
const database = await openDatabase({});
const [user] = await database.db.insert(schema.users).values({ email: "bench@example.com" }).returning();
if (!user) throw new Error("seeding failed");
const username = "bench";
const password = "bench-password";
await database.db.insert(schema.proxyCredentials).values({
  userId: user.id,
  username,
  passwordHash: hashSecret(password),
  passwordEnc: "unused",
});
// A sub-user of the same account without a limit: its credentials cost one more look-up and
// lease per connection (bench:gateway and bench:tunnels measure them beside the owner's).
const subuserUsername = "subench";
const subuserPassword = "subench-password";
await database.query(
  `INSERT INTO subusers (user_id, label, username, password_hash, password_enc, limit_period, period_start)
   VALUES ($1, 'bench', $2, $3, 'unused', 'total', subuser_period_start('total'))`,
  [user.id, subuserUsername, hashSecret(subuserPassword)],
);
await applyLedgerEntry(database.db, {
  userId: user.id,
  kind: "purchase",
  reference: "bench",
  deltaBytes: 1e15,
});

/** BENCH_RULES=N (bench:tunnels' BENCH_DESTINATION_RULES): the destination rules the gateway
 * reads, replacing the fresh-install default — 0 for none, else N rules the bench's traffic
 * never matches, as an operator's list would mostly be: names and suffixes, global and for the
 * bench's customer, and a tenth of them port ranges read for every target. */
const ruleCount = process.env.BENCH_RULES === undefined ? null : Number(process.env.BENCH_RULES);
if (ruleCount !== null) {
  await database.query("DELETE FROM destination_rules");
  await database.query(
    `INSERT INTO destination_rules (action, domain, ports, customer_id, reason)
     SELECT CASE WHEN i % 7 = 0 THEN 'report' ELSE 'block' END,
            CASE WHEN i % 10 = 0 THEN NULL WHEN i % 2 = 0 THEN 'site' || i || '.example' ELSE '*.zone' || i || '.example' END,
            CASE WHEN i % 10 = 0 THEN (2000 + i % 1000)::text || '-' || (2000 + i % 1000 + 5)::text
                 WHEN i % 3 = 0 THEN '443' ELSE NULL END,
            CASE WHEN i % 2 = 1 THEN $2::uuid ELSE NULL END,
            'bench rule ' || i
       FROM generate_series(1, $1::int) AS i`,
    [ruleCount, user.id],
  );
}

const gateway = createGateway({
  database,
  config: {
    ...defaultGatewayConfig,
    host: "127.0.0.1",
    httpPort: 0,
    httpsPort: 0,
    socksPort: 0,
    metricsPort: null,
    egressAllow: ["127.0.0.0/8"],
    shutdownGraceMs: 0,
    // The idle-tunnel measurement holds 1,000 tunnels from 127.0.0.1 at once.
    maxConnectionsPerIp: 2_000,
    maxConnectionsPerNetwork: 4_000,
    // GATEWAY_SPLICE=off: the JavaScript tunnel relay (bench:gateway measures both).
    splice: process.env.GATEWAY_SPLICE === "off" ? "off" : "auto",
  },
  logger: pino({ level: "silent" }),
});
await gateway.listen();
process.send?.({
  type: "ready",
  port: gateway.httpPort,
  tlsPort: gateway.httpsPort,
  socksPort: gateway.socksPort ?? undefined,
  username,
  password,
  subuserUsername,
  subuserPassword,
});

/** BENCH_PROFILE=dir: CPU profile of the measured phases only (not start-up), for `--cpu-prof`
 * style analysis without PGlite's initialisation drowning the relay. */
const profileDir = process.env.BENCH_PROFILE;
const profiler = profileDir ? new Session() : null;
if (profiler) {
  profiler.connect();
  profiler.post("Profiler.enable");
  profiler.post("Profiler.start");
}

process.on("message", (message: { type: string }) => {
  if (message.type === "gc") {
    globalThis.gc?.();
    process.send?.({ type: "gc-done" });
  }
  if (message.type === "usage") {
    gateway
      .flush()
      .then(() =>
        database.query<{ bytes: string }>("SELECT coalesce(sum(bytes), 0) AS bytes FROM usage_rollups"),
      )
      .then(([row]) => process.send?.({ type: "usage", bytes: Number(row?.bytes ?? 0) }));
  }
});
process.on("disconnect", () => {
  if (profiler && profileDir) {
    profiler.post("Profiler.stop", (error, result) => {
      if (!error)
        writeFileSync(join(profileDir, `gateway-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
      gateway.close().finally(() => process.exit(0));
    });
    return;
  }
  gateway.close().finally(() => process.exit(0));
});
