import { expect } from "vitest";
import type { App } from "../../../src/types.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { type Customer, customer, sandboxPay } from "../orders/helpers.ts";

export const ADMIN_TOKEN = "admin-token-console-0123456789";
export const OPERATOR_EMAIL = "ops@example.com";
export const tokenHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };

export interface ConsoleApp extends TestApp {
  /** Signed in with the magic link as OPERATOR_EMAIL (in ADMIN_EMAILS). */
  operator: Customer;
}

/** An app with both ways in: ADMIN_TOKEN and an operator in ADMIN_EMAILS (typed in another case
 * and with spaces, as people write it). */
export async function createConsoleApp(
  overrides: Record<string, string> = {},
  options: { gatewayHost?: false } = {},
): Promise<ConsoleApp> {
  const t = await createTestApp(
    {
      ADMIN_TOKEN,
      ADMIN_EMAILS: ` someone-else@example.com , ${OPERATOR_EMAIL.toUpperCase()} `,
      ...overrides,
    },
    options,
  );
  return { ...t, operator: await customer(t.app, OPERATOR_EMAIL) };
}

export async function audit(app: App, query = "") {
  const response = await app.inject({ method: "GET", url: `/admin/audit?${query}`, headers: tokenHeaders });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<{
    actor: string;
    action: string;
    subject_type: string;
    subject_id: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    note: string | null;
  }>;
}

/** A waiting sandbox order of `who` for `amount` USD. */
export async function waitingOrder(app: App, who: Customer, amount = 10): Promise<string> {
  const response = await app.inject({
    method: "POST",
    url: "/transactions",
    headers: who.headers,
    payload: { amount, method: "crypto", network_type: "solana" },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.order_id;
}

/** A deal made through the admin API, starting `startInMs` from now. */
export async function newDeal(app: App, startInMs = 3_600_000, fields: Record<string, unknown> = {}) {
  const response = await app.inject({
    method: "POST",
    url: "/admin/deals",
    headers: tokenHeaders,
    payload: {
      deal_type: "group_buy",
      deal_title: "Group buy",
      deal_price: 1,
      deal_target_gb: 500,
      deal_start_time: new Date(Date.now() + startInMs).toISOString(),
      deal_end_time: new Date(Date.now() + startInMs + 86_400_000).toISOString(),
      ...fields,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string; status: string };
}

/** A pending payout: `who` deposits 100 USD into a live group buy and withdraws it. */
export async function pendingPayout(app: App, who: Customer): Promise<string> {
  const deal = await newDeal(app, -60_000);
  const order = await app.inject({
    method: "POST",
    url: "/transactions",
    headers: who.headers,
    payload: { amount: 100, method: "crypto", network_type: "solana", deal_id: deal.id },
  });
  expect(order.statusCode, order.body).toBe(201);
  expect((await sandboxPay(app, order.json().data.order_id)).statusCode).toBe(200);
  const withdrawn = await app.inject({
    method: "POST",
    url: `/deals/${deal.id}/withdraw`,
    headers: who.headers,
    payload: { wallet_address: "0x52908400098527886E0F7030069857D2E4169EE7" },
  });
  expect(withdrawn.statusCode, withdrawn.body).toBe(200);
  const [payout] = await app.database.query<{ id: string }>(
    "SELECT id FROM payouts WHERE user_id = $1 AND status = 'pending' ORDER BY created_at DESC LIMIT 1",
    [who.id],
  );
  return payout!.id;
}
