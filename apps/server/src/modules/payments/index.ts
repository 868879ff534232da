/** What other modules use of payments: the one settlement every confirmation, refund and
 * operator's "mark paid" goes through. */
export { createSettlement, type Settlement } from "./settlement.ts";
