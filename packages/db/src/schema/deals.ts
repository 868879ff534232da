import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { createdAt } from "./columns.ts";
import { orders } from "./orders.ts";

/** Deals (migration 0014): flash sales and group buys. Every status move is one conditional UPDATE
 * of the row, and everything that moves a deal's stock or money locks the row first. */
export const deals = pgTable(
  "deals",
  {
    id: serial("id").primaryKey(),
    dealType: text("deal_type").notNull(), // flash_sale | group_buy
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    priceUsdPerGb: numeric("price_usd_per_gb", { precision: 12, scale: 4 }).notNull(),
    status: text("status").notNull().default("pending"), // pending | live | activated | expired | cancelled
    startTime: timestamp("start_time", { withTimezone: true }).notNull(),
    endTime: timestamp("end_time", { withTimezone: true }).notNull(),
    targetGb: bigint("target_gb", { mode: "number" }).notNull(),
    /** A flash sale's stock reserved by open orders or sold. */
    reservedGb: bigint("reserved_gb", { mode: "number" }).notNull().default(0),
    /** A group buy's paid deposits counting towards its target (held, or credited at activation). */
    depositedCents: bigint("deposited_cents", { mode: "number" }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("deals_status_end_idx").on(t.status, t.endTime),
    check("deals_type_check", sql`${t.dealType} IN ('flash_sale', 'group_buy')`),
    check("deals_status_check", sql`${t.status} IN ('pending', 'live', 'activated', 'expired', 'cancelled')`),
    check("deals_price_check", sql`${t.priceUsdPerGb} > 0`),
    check("deals_target_check", sql`${t.targetGb} > 0`),
    check("deals_window_check", sql`${t.endTime} > ${t.startTime}`),
    check("deals_reserved_check", sql`${t.reservedGb} >= 0`),
    check("deals_deposited_check", sql`${t.depositedCents} >= 0`),
  ],
);

/** A flash-sale order's stock: taken at order creation, given back once when it ends unpaid. */
export const dealReservations = pgTable(
  "deal_reservations",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    dealId: integer("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    gb: bigint("gb", { mode: "number" }).notNull(),
    released: boolean("released").notNull().default(false),
  },
  (t) => [index("deal_reservations_open_idx").on(t.dealId).where(sql`released = false`)],
);

/** Payouts the operator executes (pending → sent with a transaction hash, or failed). */
export const payouts = pgTable(
  "payouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    dealId: integer("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(), // withdrawal | refund
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    walletAddress: text("wallet_address").notNull(),
    status: text("status").notNull().default("pending"), // pending | sent | failed
    txHash: text("tx_hash"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("payouts_status_created_idx").on(t.status, t.createdAt),
    index("payouts_user_idx").on(t.userId, t.createdAt),
    check("payouts_kind_check", sql`${t.kind} IN ('withdrawal', 'refund')`),
    check("payouts_status_check", sql`${t.status} IN ('pending', 'sent', 'failed')`),
    check("payouts_amount_check", sql`${t.amountCents} > 0`),
  ],
);

/** A group buy's paid deposit, in exactly one state: held (counts towards the target), credited
 * (its GB reached the ledger at activation), refundable (the deal ended unmet and its owner has
 * no refund address yet), paid_out (a pending or sent payout carries it) or reversed (the payment
 * provider gave all of it back). amount_cents is what it still holds, refunded_cents what the
 * provider gave back (migration 0020): together, what was paid. */
export const dealDeposits = pgTable(
  "deal_deposits",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    dealId: integer("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    refundedCents: bigint("refunded_cents", { mode: "number" }).notNull().default(0),
    status: text("status").notNull().default("held"),
    payoutId: uuid("payout_id").references(() => payouts.id),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("deal_deposits_deal_status_idx").on(t.dealId, t.status),
    index("deal_deposits_user_deal_idx").on(t.userId, t.dealId),
    check(
      "deal_deposits_status_check",
      sql`${t.status} IN ('held', 'credited', 'refundable', 'paid_out', 'reversed')`,
    ),
    check(
      "deal_deposits_amount_check",
      sql`${t.amountCents} >= 0 AND ${t.refundedCents} >= 0 AND (${t.amountCents} > 0 OR ${t.status} = 'reversed')`,
    ),
  ],
);
