import { createTestDatabase } from "@bytetoll/db/testing";
import { expect } from "vitest";
import { buildApp } from "../../../src/app.ts";
import { signAppToken } from "../../../src/lib/app-token.ts";
import type { Order } from "../../../src/modules/orders/schemas.ts";
import type { PaymentsOptions } from "../../../src/modules/payments/providers.ts";
import { createOutboxMailer } from "../../../src/plugins/mail.ts";
import type { App } from "../../../src/types.ts";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { type TestApp, testConfig } from "../../helpers/test-app.ts";

export interface Customer {
  id: string;
  token: string;
  headers: { authorization: string };
}

/** A customer signed in through the real magic-link endpoints (so they hold the free 1 GB). */
export async function customer(app: App, email: string): Promise<Customer> {
  const session = await signIn(app, email);
  return { id: session.id, token: session.token, headers: bearer(session.token) };
}

export async function createOrder(app: App, who: Customer, payload: Record<string, unknown>): Promise<Order> {
  const response = await app.inject({ method: "POST", url: "/transactions", headers: who.headers, payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

export async function getOrder(app: App, who: Customer, orderId: string): Promise<Order> {
  const response = await app.inject({ method: "GET", url: `/transactions/${orderId}`, headers: who.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

export async function balanceBytes(app: App, who: Customer): Promise<number> {
  const response = await app.inject({ method: "GET", url: "/account/status", headers: who.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.balance_bytes;
}

export async function sandboxPay(app: App, orderId: string, payload?: Record<string, unknown>) {
  return app.inject({
    method: "POST",
    url: `/dev/orders/${orderId}/pay`,
    ...(payload ? { payload } : {}),
  });
}

/** Moves the orders' payment deadlines into the past, as the clock would once their time is up. */
export async function makeOverdue(app: App, ...orderIds: string[]): Promise<void> {
  await app.database.query("UPDATE orders SET expires_at = now() - interval '1 second' WHERE id = ANY($1)", [
    orderIds,
  ]);
}

/** balance = sum of ledger entries, for every account. */
export async function ledgerMismatches(app: App): Promise<unknown[]> {
  return app.database.query(
    `SELECT u.id, u.balance_bytes, coalesce(sum(l.delta_bytes), 0) AS total
       FROM users u LEFT JOIN ledger_entries l ON l.user_id = u.id
      GROUP BY u.id, u.balance_bytes HAVING u.balance_bytes <> coalesce(sum(l.delta_bytes), 0)`,
  );
}

export const GB = 1e9;

/** A signed-in customer made without the e-mail round trip (for apps whose dev outbox is off). */
export async function customerWithoutEmail(
  database: { query<T>(text: string, params?: unknown[]): Promise<T[]> },
  jwtSecret: string,
  email: string,
): Promise<Customer> {
  const [user] = await database.query<{ id: string }>("INSERT INTO users (email) VALUES ($1) RETURNING id", [
    email,
  ]);
  const [session] = await database.query<{ id: string; exp: number }>(
    `INSERT INTO sessions (user_id, expires_at) VALUES ($1, now() + interval '1 day')
     RETURNING id, extract(epoch FROM expires_at)::int AS exp`,
    [user!.id],
  );
  const token = await signAppToken(jwtSecret, {
    userId: user!.id,
    sessionId: session!.id,
    exp: Number(session!.exp),
  });
  return { id: user!.id, token, headers: bearer(token) };
}

/** createTestApp plus buildApp's payment overrides (Stripe's client aimed at a local stand-in). */
export async function createTestAppWithPayments(
  overrides: Record<string, string>,
  payments: PaymentsOptions,
): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = testConfig(overrides);
  const app = await buildApp({
    config,
    database,
    mailer: createOutboxMailer(database, () => {}),
    logger: false,
    payments,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    printed: [],
    async close() {
      await app.close();
      await database.close();
    },
  };
}
