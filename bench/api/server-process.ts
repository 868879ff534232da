import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyLedgerEntry } from "@bytetoll/db";
import { createTestDatabase } from "@bytetoll/db/testing";
import Fastify from "fastify";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config.ts";
import { signAppToken } from "../../apps/server/src/lib/app-token.ts";

/**
 * The servers under test, in their own process so the load generator does not share their CPU:
 * the real app (production settings, its own throw-away database, one account with ORDERS
 * orders) and a bare Fastify route answering a same-sized balance body.
 */

const ORDERS = Number(process.env.BENCH_ORDERS ?? 300);
const CHURN_MS = 100;
const JWT_SECRET = "bench-secret-bench-secret-bench-secret-01";

async function main() {
  const database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    JWT_SECRET,
    // The load generator sends X-Forwarded-For from a pool of addresses, as clients behind a
    // proxy would, so the per-IP limiter is exercised without answering 429s.
    TRUST_PROXY: "true",
    // Signed-in calls are limited per user: one user at 20,000 req/s is the load, not abuse.
    RATE_LIMIT_PER_MINUTE: "100000000",
    DATA_DIR: path.join(tmpdir(), "bytetoll-bench-api"),
    WEB_DIST_DIR: path.join(tmpdir(), "bytetoll-bench-no-web"),
  });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();

  const [user] = await database.query<{ id: string }>(
    "INSERT INTO users (email) VALUES ('bench-api@example.com') RETURNING id",
  );
  const [session] = await database.query<{ id: string; exp: number }>(
    `INSERT INTO sessions (user_id, expires_at) VALUES ($1, now() + interval '1 day')
     RETURNING id, extract(epoch FROM expires_at)::int AS exp`,
    [user!.id],
  );
  const token = await signAppToken(JWT_SECRET, {
    userId: user!.id,
    sessionId: session!.id,
    exp: session!.exp,
  });
  const networks = ["solana", "polygon", "base", "ethereum"] as const;
  for (let i = 0; i < ORDERS; i++) {
    const order = await app.orders.create(user!.id, {
      amount: 3 + (i % 50),
      method: "crypto",
      network_type: networks[i % 4],
    });
    if (i % 2 === 0) await app.settlement.paySandbox(order.order_id);
  }
  await database.query("ANALYZE");
  await app.listen({ port: 0, host: "127.0.0.1" });

  // The same bytes GET /transactions answers (ten orders with their QR codes), already
  // serialised: what Fastify alone costs to send that much.
  const page = (
    await app.inject({ method: "GET", url: "/transactions", headers: { authorization: `Bearer ${token}` } })
  ).body;
  const bare = Fastify({ logger: false });
  bare.get("/bare", async () => ({ success: true, data: { balance_gb: 1, balance_bytes: 1e9 } }));
  bare.get("/bare-page", async (_request, reply) => reply.type("application/json; charset=utf-8").send(page));
  await bare.listen({ port: 0, host: "127.0.0.1" });

  process.send?.({
    type: "ready",
    appPort: (app.server.address() as AddressInfo).port,
    barePort: (bare.server.address() as AddressInfo).port,
    token,
    database: database.kind,
    pageBytes: Buffer.byteLength(page),
  });
  // "churn": debit the account every CHURN_MS, as the gateway's flush does while the customer's
  // traffic flows, so each debit drops the cached balance on its way (decision 006).
  let churn: NodeJS.Timeout | undefined;
  let debits = 0;
  process.on("message", async (message: { type: string; on?: boolean }) => {
    if (message.type === "churn") {
      clearInterval(churn);
      if (message.on) {
        churn = setInterval(() => {
          void applyLedgerEntry(database.db, {
            userId: user!.id,
            kind: "usage",
            reference: `bench:${debits++}`,
            deltaBytes: -1_000,
          });
        }, CHURN_MS);
      }
      return;
    }
    if (message.type === "stats") {
      const { caches } = app.changeFeed;
      process.send?.({
        type: "stats",
        sessions: caches.sessions.stats(),
        balances: caches.balances.stats(),
        orderPages: caches.orderPages.stats(),
      });
      return;
    }
    if (message.type !== "stop") return;
    clearInterval(churn);
    await bare.close();
    await app.close();
    await database.close();
    process.exit(0);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
