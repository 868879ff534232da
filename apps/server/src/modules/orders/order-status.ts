import type { PaymentStatus } from "@bytetoll/contracts";
import { OPEN_STATUSES, ORDER_STATUSES, type OrderStatus } from "../../lib/order-statuses.ts";

export {
  ENDED_UNPAID_STATUSES,
  OPEN_STATUSES,
  ORDER_STATUSES,
  type OrderStatus,
  statusList,
} from "../../lib/order-statuses.ts";

/**
 * THE moves an order's status may make, from → to. Every UPDATE that sets a status goes through
 * `moveStatus` (status-writes.ts), which refuses a move not listed here before any SQL and puts
 * the allowed sources in its WHERE, so a row that moved meanwhile is left alone. A move to the
 * same status is listed where a write changes the row but not its status (more credit, a part
 * refund, a newer partial payment note, a method chosen).
 * - A payment that arrives is always credited, also after expiry, cancel or failure — never
 *   once refunded (a refunded order is closed).
 * - Part of a payment marks the order partially paid and credits nothing.
 * - A refund or chargeback of all that was credited (or of a part payment) ends in refunded.
 */
export const ORDER_TRANSITIONS = {
  awaiting_method: ["waiting", "paid", "partially_paid", "failed", "expired", "cancelled"],
  waiting: ["paid", "partially_paid", "failed", "expired", "cancelled"],
  partially_paid: ["paid", "partially_paid", "refunded"],
  paid: ["paid", "refunded"],
  expired: ["paid", "partially_paid"],
  cancelled: ["paid", "partially_paid"],
  failed: ["paid"],
  refunded: [],
} as const satisfies Record<OrderStatus, readonly OrderStatus[]>;

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return (ORDER_TRANSITIONS[from] as readonly OrderStatus[]).includes(to);
}

export const isOpen = (status: string): boolean => (OPEN_STATUSES as readonly string[]).includes(status);

/** A stored status as the API shows it: an order awaiting its method is waiting for its payment
 * like any other (the page then offers the choice of method). */
export function publicStatus(status: OrderStatus): PaymentStatus {
  switch (status) {
    case "awaiting_method":
      return "waiting";
    case "waiting":
    case "paid":
    case "partially_paid":
    case "failed":
    case "expired":
    case "refunded":
    case "cancelled":
      return status;
    default:
      throw new Error(`order status with no public name: ${status satisfies never}`);
  }
}

/** The stored statuses behind a status the API names (a filter by "waiting" finds both). */
export function storedStatuses(status: PaymentStatus): OrderStatus[] {
  return status === "waiting" ? ["awaiting_method", "waiting"] : [status];
}

/** A status read from the database; one the table does not know is a stop, not a guess. */
export function asOrderStatus(value: string): OrderStatus {
  if ((ORDER_STATUSES as readonly string[]).includes(value)) return value as OrderStatus;
  throw new Error(`unknown order status in the database: ${value}`);
}
