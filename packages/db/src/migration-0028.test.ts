import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { migrationsFolder } from "./client.ts";
import { type BlankDatabase, blankDatabase, migrationsBefore } from "./migration-install.ts";

const USER = "00000000-0000-4000-8000-000000000001";
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** An install at migration 0027 with orders of every old shape and a handled Stripe event. */
async function installBefore0028(extra: string[] = []): Promise<BlankDatabase> {
  const blank = await blankDatabase();
  const folder = migrationsBefore("0028_order-states-and-providers");
  try {
    await blank.migrate(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  await blank.query(`INSERT INTO users (id, email) VALUES ('${USER}', 'old@example.com')`);
  const columns = `id, user_id, method, network_type, amount_cents, bytes, payment_status, provider,
    provider_payment_id, pay_address, stripe_session_id, stripe_redirect_url, stripe_payment_intent,
    credited_bytes, expires_at`;
  const rows = [
    // Made at sign-in, no method chosen yet: stored as a waiting crypto order with no network.
    `'${id(1)}', '${USER}', 'crypto', NULL, 300, 1000, 'waiting', 'sandbox', NULL, NULL, NULL, NULL, NULL, 0`,
    // The same, closed before a method was chosen: it keeps its status.
    `'${id(2)}', '${USER}', 'crypto', NULL, 300, 1000, 'expired', 'sandbox', NULL, NULL, NULL, NULL, NULL, 0`,
    // A USDC order at NOWPayments.
    `'${id(3)}', '${USER}', 'crypto', 'solana', 500, 2000, 'waiting', 'nowpayments', '5001', 'So1addr', NULL, NULL, NULL, 0`,
    // A Stripe order paid: its session (also in provider_payment_id), page and payment intent.
    `'${id(4)}', '${USER}', 'card', NULL, 900, 3000, 'paid', 'stripe', 'cs_paid', NULL, 'cs_paid', 'https://checkout.stripe.com/c/cs_paid', 'pi_paid', 3000`,
    // A Stripe order opened, not paid yet.
    `'${id(5)}', '${USER}', 'card', NULL, 900, 3000, 'waiting', 'stripe', 'cs_open', NULL, 'cs_open', 'https://checkout.stripe.com/c/cs_open', NULL, 0`,
    // A sandbox card order whose page was opened (no session id).
    `'${id(6)}', '${USER}', 'card', NULL, 300, 1000, 'waiting', 'sandbox', NULL, NULL, NULL, 'http://localhost/dev/card-checkout/x', NULL, 0`,
    ...extra,
  ];
  for (const values of rows) {
    await blank.query(`INSERT INTO orders (${columns}) VALUES (${values}, now() + interval '1 hour')`);
  }
  await blank.query("INSERT INTO stripe_events (id, type) VALUES ('evt_1', 'checkout.session.completed')");
  return blank;
}

// Migrating a blank PGlite from scratch takes tens of seconds on a shared CPU.
describe("migration 0028 on an existing install", { timeout: 120_000 }, () => {
  it("moves every order and handled event to the new columns, nothing lost", async () => {
    const install = await installBefore0028();
    try {
      await install.migrate(migrationsFolder);
      const orders = await install.query(
        `SELECT id, payment_status, method, network_type, provider, provider_payment_id,
                provider_session_id, provider_redirect_url, pay_address, credited_bytes::int AS credited
           FROM orders ORDER BY id`,
      );
      const at = (n: number) => orders.find((row) => row.id === id(n));
      expect(orders).toHaveLength(6);
      expect(at(1)).toMatchObject({ payment_status: "awaiting_method", method: null, network_type: null });
      expect(at(2)).toMatchObject({ payment_status: "expired", method: "crypto" });
      expect(at(3)).toMatchObject({
        payment_status: "waiting",
        provider_payment_id: "5001",
        provider_session_id: null,
        pay_address: "So1addr",
      });
      expect(at(4)).toMatchObject({
        payment_status: "paid",
        provider_payment_id: "pi_paid",
        provider_session_id: "cs_paid",
        provider_redirect_url: "https://checkout.stripe.com/c/cs_paid",
        credited: 3000,
      });
      expect(at(5)).toMatchObject({
        provider_payment_id: null,
        provider_session_id: "cs_open",
        provider_redirect_url: "https://checkout.stripe.com/c/cs_open",
      });
      expect(at(6)).toMatchObject({
        provider_session_id: null,
        provider_redirect_url: "http://localhost/dev/card-checkout/x",
      });
      expect(await install.query("SELECT provider, event_id, type FROM provider_events")).toEqual([
        { provider: "stripe", event_id: "evt_1", type: "checkout.session.completed" },
      ]);
      const gone = await install.query(
        `SELECT table_name, column_name FROM information_schema.columns
          WHERE table_name IN ('orders', 'stripe_events') AND (column_name LIKE 'stripe%' OR table_name = 'stripe_events')`,
      );
      expect(gone).toEqual([]);
      // The same session cannot open a second Stripe order.
      await expect(
        install.query(`INSERT INTO orders (user_id, method, amount_cents, bytes, provider, provider_session_id, expires_at)
          VALUES ('${USER}', 'card', 1, 1, 'stripe', 'cs_open', now())`),
      ).rejects.toThrow("orders_provider_session_uq");
    } finally {
      await install.close();
    }
  });

  it("stops naming a Stripe order whose payment is not its session, and changes nothing", async () => {
    const odd = `'${id(9)}', '${USER}', 'card', NULL, 900, 3000, 'paid', 'stripe', 'pi_odd', NULL, 'cs_odd', NULL, 'pi_other', 3000`;
    const install = await installBefore0028([odd]);
    try {
      const failure = await install.migrate(migrationsFolder).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(String((failure?.cause as Error | undefined)?.message ?? failure?.message)).toMatch(
        new RegExp(`migration 0028: these Stripe orders .*${id(9)}`),
      );
      const [row] = await install.query(`SELECT stripe_payment_intent FROM orders WHERE id = '${id(9)}'`);
      expect(row).toEqual({ stripe_payment_intent: "pi_other" });
    } finally {
      await install.close();
    }
  });
});
