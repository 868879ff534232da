import { expect } from "vitest";
import type { Order } from "../../../src/modules/orders/schemas.ts";
import type { App } from "../../../src/types.ts";
import { bearer, signIn } from "../../helpers/sign-in.ts";

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

/** balance = sum of ledger entries, for every account. */
export async function ledgerMismatches(app: App): Promise<unknown[]> {
  return app.database.query(
    `SELECT u.id, u.balance_bytes, coalesce(sum(l.delta_bytes), 0) AS total
       FROM users u LEFT JOIN ledger_entries l ON l.user_id = u.id
      GROUP BY u.id, u.balance_bytes HAVING u.balance_bytes <> coalesce(sum(l.delta_bytes), 0)`,
  );
}

export const GB = 1e9;
