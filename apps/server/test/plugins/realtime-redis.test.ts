import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../src/modules/orders/schemas.ts";
import { connectRealtime } from "../helpers/realtime-client.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { type Customer, createOrder, customerWithoutEmail, sandboxPay } from "../modules/orders/helpers.ts";

const { REDIS_URL, DATABASE_URL } = process.env;
const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const skipReason =
  !REDIS_URL || !DATABASE_URL ? "needs REDIS_URL and DATABASE_URL (two instances share them)" : null;

describe.skipIf(skipReason !== null)(
  `realtime across two instances${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let database: TestDatabase;
    let first: TestApp;
    let second: TestApp;
    let socket: Socket | undefined;
    let alice: Customer;

    beforeAll(async () => {
      database = await createTestDatabase();
      // Two servers on one PostgreSQL database and one Redis, as behind a load balancer.
      first = await createTestApp({ REDIS_URL: REDIS_URL ?? "" }, { database });
      second = await createTestApp({ REDIS_URL: REDIS_URL ?? "" }, { database });
      await second.app.listen({ port: 0, host: "127.0.0.1" });
      // Not through /auth/login: with Redis its per-IP limit is shared by every test run.
      alice = await customerWithoutEmail(database, first.config.JWT_SECRET, "alice@example.com");
    });
    afterAll(async () => {
      socket?.disconnect();
      await first?.close();
      await second?.close();
      await database?.close();
    });

    it("delivers an order change made on one instance to a client of the other", async () => {
      socket = await connectRealtime(second.app, alice.token);
      expect(
        await socket.timeout(5_000).emitWithAck("subscribe", { channel: `topup-transactions.${alice.id}` }),
      ).toEqual({
        ok: true,
      });

      const order = await createOrder(first.app, alice, { amount: 15, network_type: "solana" });
      const paid = new Promise<Order>((resolve) =>
        socket?.on("topup-transaction.updated", (payload: { topup_transaction: Order }) => {
          if (payload.topup_transaction.payment_status === "paid") resolve(payload.topup_transaction);
        }),
      );
      const response = await sandboxPay(first.app, order.order_id);
      expect(response.statusCode).toBe(200);
      expect(await paid).toMatchObject({
        order_id: order.order_id,
        payment_status: "paid",
        user_id: alice.id,
      });
    });

    it("delivers an order the admin CLI marks paid (a process without a server) to the client", async () => {
      const order = await createOrder(first.app, alice, { amount: 3, network_type: "base" });
      const paid = new Promise<Order>((resolve) =>
        socket?.on("topup-transaction.updated", (payload: { topup_transaction: Order }) => {
          const changed = payload.topup_transaction;
          if (changed.order_id === order.order_id && changed.payment_status === "paid") resolve(changed);
        }),
      );
      await run(
        `${root}node_modules/.bin/tsx`,
        ["apps/server/src/cli/admin.ts", "orders:pay", order.order_id],
        {
          cwd: root,
          env: {
            ...process.env,
            DATABASE_URL: database.url,
            REDIS_URL,
            JWT_SECRET: first.config.JWT_SECRET,
            PORT: "1", // nothing listens there, so the CLI opens the database itself
          },
        },
      );
      expect(await paid).toMatchObject({ payment_status: "paid" });
    }, 60_000);
  },
);
