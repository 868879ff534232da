import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { createdAt } from "./columns.ts";

/** Top-up orders (decision 003). Money is integer cents, data integer bytes. `credited_bytes` is
 * how much of `bytes` has reached the ledger: the credit moves it forward with a conditional
 * UPDATE in the same transaction as the ledger entry, so replays and races credit once. */
export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** crypto | card; null while the order awaits its method (status awaiting_method) and on an
     * order that closed before one was chosen. */
    method: text("method"),
    networkType: text("network_type"), // solana | polygon | base | ethereum
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    /** The stored status; apps/server/src/modules/orders/order-status.ts is its table of moves. */
    paymentStatus: text("payment_status").notNull().default("waiting"),
    provider: text("provider").notNull(), // sandbox | nowpayments | stripe
    /** The provider's payment: a NOWPayments payment id, a Stripe payment intent (known once paid). */
    providerPaymentId: text("provider_payment_id"),
    /** The provider's hosted checkout session the customer pays on (Stripe Checkout). */
    providerSessionId: text("provider_session_id"),
    /** Where that hosted checkout is (the API's `stripe_redirect_url`). */
    providerRedirectUrl: text("provider_redirect_url"),
    payAddress: text("pay_address"),
    qrCode: text("qr_code"),
    priceAmountCents: bigint("price_amount_cents", { mode: "number" }),
    paymentToken: text("payment_token"),
    payinHash: text("payin_hash"),
    creditedBytes: bigint("credited_bytes", { mode: "number" }).notNull().default(0),
    /** How much of credited_bytes a refund or chargeback has taken back (≤ credited_bytes). */
    reversedBytes: bigint("reversed_bytes", { mode: "number" }).notNull().default(0),
    balanceBytesAfter: bigint("balance_bytes_after", { mode: "number" }),
    dealId: text("deal_id"),
    quantity: integer("quantity"),
    note: text("note"),
    /** `checkout` (the customer's) or `auto_topup` (charged to the saved card, migration 0029). */
    origin: text("origin").notNull().default("checkout"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
  },
  (t) => [
    // The history page, newest first with a unique tie-breaker, straight from the index.
    index("orders_user_created_id_idx").on(t.userId, t.createdAt, t.id),
    uniqueIndex("orders_provider_payment_uq").on(t.provider, t.providerPaymentId),
    uniqueIndex("orders_provider_session_uq").on(t.provider, t.providerSessionId),
    index("orders_waiting_expiry_idx")
      .on(t.expiresAt)
      .where(sql`payment_status IN ('waiting', 'awaiting_method')`),
    // Migrations 0027 and 0028: known values, no negative amounts, credited ≤ bought, reversed ≤
    // credited; an order awaiting its method has none, a waiting one has one.
    check(
      "orders_status_check",
      sql`${t.paymentStatus} IN ('awaiting_method', 'waiting', 'paid', 'partially_paid', 'failed', 'expired', 'refunded', 'cancelled')`,
    ),
    check("orders_method_check", sql`${t.method} IS NULL OR ${t.method} IN ('crypto', 'card')`),
    check(
      "orders_method_chosen_check",
      sql`CASE WHEN ${t.paymentStatus} = 'awaiting_method' THEN ${t.method} IS NULL AND ${t.networkType} IS NULL AND ${t.providerPaymentId} IS NULL AND ${t.providerSessionId} IS NULL WHEN ${t.paymentStatus} = 'waiting' THEN ${t.method} IS NOT NULL ELSE true END`,
    ),
    check("orders_provider_check", sql`${t.provider} IN ('sandbox', 'nowpayments', 'stripe')`),
    check(
      "orders_network_check",
      sql`${t.networkType} IS NULL OR ${t.networkType} IN ('solana', 'polygon', 'base', 'ethereum')`,
    ),
    check(
      "orders_amounts_check",
      sql`${t.amountCents} >= 0 AND ${t.bytes} >= 0 AND (${t.priceAmountCents} IS NULL OR ${t.priceAmountCents} >= 0) AND (${t.quantity} IS NULL OR ${t.quantity} > 0)`,
    ),
    check("orders_credited_check", sql`${t.creditedBytes} >= 0 AND ${t.creditedBytes} <= ${t.bytes}`),
    check("orders_reversed_check", sql`${t.reversedBytes} >= 0 AND ${t.reversedBytes} <= ${t.creditedBytes}`),
    check("orders_origin_check", sql`${t.origin} IN ('checkout', 'auto_topup')`),
    index("orders_auto_topup_idx").on(t.userId, t.createdAt).where(sql`origin = 'auto_topup'`),
  ],
);

/** Provider callbacks already handled, by the provider's event id: a redelivered event is a
 * no-op (migration 0028; it took over stripe_events). */
export const providerEvents = pgTable(
  "provider_events",
  {
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "provider_events_pk", columns: [t.provider, t.eventId] })],
);

/** Signed provider callbacks that were not credited because they do not match their order (another
 * session, another amount or currency): kept with the reason, once per (provider, reference, reason). */
export const paymentRejections = pgTable(
  "payment_rejections",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    reference: text("reference").notNull(),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payment_rejections_reference_uq").on(t.provider, t.reference, t.reason),
    index("payment_rejections_order_idx").on(t.orderId),
  ],
);

/** Signed, verified provider callbacks that concern an order, one row each, written in the
 * transaction that acts on them (the operator's order page lists them). summary holds amounts and
 * currencies only, never a signature or the provider's payload. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    eventType: text("event_type").notNull(),
    providerReference: text("provider_reference").notNull(),
    outcome: text("outcome").notNull(),
    summary: jsonb("summary").notNull().default(sql`'{}'::jsonb`),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payment_events_order_received_idx").on(t.orderId, t.receivedAt)],
);

/** Auto top-up by card (migration 0029): the settings, the saved card and the crossing flag that
 * lets exactly one instance top up per fall below the threshold. */
export const autoTopups = pgTable(
  "auto_topups",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(false),
    thresholdBytes: bigint("threshold_bytes", { mode: "number" }).notNull().default(1_000_000_000),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull().default(5000),
    monthlyCapCents: bigint("monthly_cap_cents", { mode: "number" }).notNull().default(50_000),
    cardProvider: text("card_provider"),
    providerCustomerId: text("provider_customer_id"),
    providerMethodId: text("provider_method_id"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    setupId: uuid("setup_id"),
    setupSessionId: text("setup_session_id"),
    setupStartedAt: timestamp("setup_started_at", { withTimezone: true }),
    /** Set once this fall below the threshold was handled; cleared at or above it (re-armed). */
    crossedAt: timestamp("crossed_at", { withTimezone: true }),
    failures: integer("failures").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("auto_topups_setup_uq").on(t.setupId),
    uniqueIndex("auto_topups_setup_session_uq").on(t.setupSessionId),
    check(
      "auto_topups_amounts_check",
      sql`${t.thresholdBytes} > 0 AND ${t.amountCents} > 0 AND ${t.monthlyCapCents} >= ${t.amountCents}`,
    ),
    check(
      "auto_topups_provider_check",
      sql`${t.cardProvider} IS NULL OR ${t.cardProvider} IN ('sandbox', 'stripe')`,
    ),
    check("auto_topups_enabled_card_check", sql`NOT ${t.enabled} OR ${t.providerMethodId} IS NOT NULL`),
    check("auto_topups_failures_check", sql`${t.failures} >= 0`),
  ],
);
