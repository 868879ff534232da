import { PAYMENT_STATUSES } from "@bytetoll/contracts";
import { type SQL, sql } from "drizzle-orm";

// The statuses an order is stored with, kept here (not in the orders module) so that modules the
// orders module itself uses (deals) can name them in their SQL without a circle of imports. The
// moves between them are the orders module's (orders/order-status.ts).

/**
 * Every status an order is stored with: the API's statuses and `awaiting_method`, an order made
 * at sign-in before its customer chose how to pay (it has no method, network or provider payment
 * yet). docs/product.md#order-statuses describes them as customers see them.
 */
export const ORDER_STATUSES = ["awaiting_method", ...PAYMENT_STATUSES] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Statuses an order still waits for its payment in (the expiry sweep's and cancel's). */
export const OPEN_STATUSES = ["awaiting_method", "waiting"] as const satisfies readonly OrderStatus[];

/** Statuses an order ended in without being paid (what it held, such as flash-sale stock, goes back). */
export const ENDED_UNPAID_STATUSES = [
  "expired",
  "failed",
  "cancelled",
] as const satisfies readonly OrderStatus[];

/** A list of statuses as SQL, `('a', 'b')`, each a bound parameter. */
export const statusList = (statuses: readonly OrderStatus[]): SQL =>
  sql`(${sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  )})`;
