import type { AutoTopupSettings } from "@bytetoll/contracts";
import { expect } from "vitest";
import type { App } from "../../../src/types.ts";
import type { Customer } from "../orders/helpers.ts";
import { eventually } from "../webhooks/receiver.ts";

export const ADMIN_TOKEN = "admin-token-auto-topup-0123456789";

/** An app whose webhooks reach a receiver on this host at once and retry within a test's time. */
export const FAST = {
  EGRESS_ALLOW: "127.0.0.0/8",
  WEBHOOK_RETRY_BASE_MS: "100",
  WEBHOOK_POLL_MS: "50",
  ADMIN_TOKEN,
};
export const GB = 1e9;

export async function readSettings(app: App, who: Customer): Promise<AutoTopupSettings> {
  const response = await app.inject({ method: "GET", url: "/settings/auto-topup", headers: who.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

export async function putSettings(app: App, who: Customer, payload: Record<string, unknown>) {
  return app.inject({ method: "PUT", url: "/settings/auto-topup", headers: who.headers, payload });
}

/** Saves a sandbox test card the way a person does: open the card page, press its button. */
export async function saveSandboxCard(app: App, who: Customer, card: "pays" | "declines" = "pays") {
  const opened = await app.inject({ method: "POST", url: "/settings/auto-topup/card", headers: who.headers });
  expect(opened.statusCode, opened.body).toBe(200);
  const path = new URL(opened.json().data.redirect_url).pathname;
  const page = await app.inject({ method: "GET", url: path });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain("Save test card");
  const saved = await app.inject({
    method: "POST",
    url: `${path}?card=${card}`,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: "",
  });
  expect(saved.statusCode, saved.body).toBe(303);
  return saved.headers.location;
}

/** An operator's credit or debit through the admin API (negative GB debits): the ledger and the
 * change feed see it like any other balance change. */
export async function adjustBalance(app: App, who: Customer, gb: number) {
  const response = await app.inject({
    method: "POST",
    url: `/admin/customers/${who.id}/credit`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { gb, note: "auto top-up test" },
  });
  expect(response.statusCode, response.body).toBe(200);
}

export async function balanceBytesOf(app: App, userId: string): Promise<number> {
  const [row] = await app.database.query<{ b: string }>(
    "SELECT balance_bytes AS b FROM users WHERE id = $1",
    [userId],
  );
  return Number(row?.b);
}

/** Waits until the crossing flag is armed again (the balance was seen at or above the threshold). */
export async function armed(app: App, userId: string): Promise<void> {
  await eventually(
    "auto top-up armed",
    async () =>
      (
        await app.database.query<{ c: unknown }>(
          "SELECT crossed_at AS c FROM auto_topups WHERE user_id = $1",
          [userId],
        )
      )[0]?.c,
    (crossed) => crossed === null,
  );
}

export interface TopupOrderRow {
  id: string;
  payment_status: string;
  amount_cents: string;
  provider: string;
}

export async function topupOrders(app: App, userId: string): Promise<TopupOrderRow[]> {
  return app.database.query<TopupOrderRow>(
    "SELECT id, payment_status, amount_cents, provider FROM orders WHERE user_id = $1 AND origin = 'auto_topup' ORDER BY created_at",
    [userId],
  );
}

export async function outboxSubjects(app: App, to: string): Promise<string[]> {
  const rows = await app.database.query<{ subject: string }>(
    'SELECT subject FROM outbox_messages WHERE "to" = $1 ORDER BY id',
    [to],
  );
  return rows.map((row) => row.subject);
}
