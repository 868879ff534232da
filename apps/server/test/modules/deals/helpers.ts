import { expect } from "vitest";
import type { App } from "../../../src/types.ts";
import type { Customer } from "../orders/helpers.ts";

export const ADMIN_TOKEN = "admin-token-deals-0123456789";
export const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

const hour = 3_600_000;

/** A deal made through the operator's API; live at once unless `start` is in the future. */
export async function createDeal(app: App, fields: Record<string, unknown>) {
  const response = await app.inject({
    method: "POST",
    url: "/admin/deals",
    headers: admin,
    payload: {
      deal_title: "Deal",
      deal_description: "A promotion",
      deal_start_time: new Date(Date.now() - 60_000).toISOString(),
      deal_end_time: new Date(Date.now() + hour).toISOString(),
      ...fields,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as {
    id: string;
    status: string;
    deal_reserved_gb: number;
    deal_target_gb: number;
  };
}

export async function getDeal(app: App, id: string) {
  const response = await app.inject({ method: "GET", url: `/deals/${id}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { status: string; deal_reserved_gb: number };
}

export function orderFor(app: App, who: Customer, payload: Record<string, unknown>) {
  return app.inject({
    method: "POST",
    url: "/transactions",
    headers: who.headers,
    payload: { method: "crypto", network_type: "solana", ...payload },
  });
}

export async function depositsOf(
  app: App,
  who: Customer,
  id: string,
): Promise<{ total_deposit: number; credited_deposit: number }> {
  const response = await app.inject({ method: "GET", url: `/deals/${id}/deposits`, headers: who.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

export async function totalDeposit(app: App, who: Customer, id: string): Promise<number> {
  return (await depositsOf(app, who, id)).total_deposit;
}

export function withdraw(app: App, who: Customer, id: string, payload: unknown) {
  return app.inject({
    method: "POST",
    url: `/deals/${id}/withdraw`,
    headers: who.headers,
    payload: payload as object,
  });
}

export async function payouts(app: App) {
  const response = await app.inject({ method: "GET", url: "/admin/payouts", headers: admin });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as {
    id: string;
    user_id: string;
    kind: string;
    amount_usd: number;
    status: string;
    wallet_address: string;
  }[];
}

export const EVM_WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";
