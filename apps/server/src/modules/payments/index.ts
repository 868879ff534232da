/** What other modules use of payments: the one settlement every confirmation, refund and
 * operator's "mark paid" goes through, the providers the app plugs in, and the operator console's
 * reads of provider events and refused callbacks. */

export { providerEventsForOrder, rejectionsByReason, rejectionsForOrder } from "./operator-reads.ts";
export { createPayments, type Payments, type PaymentsOptions } from "./providers.ts";
export { createSettlement, type Settlement } from "./settlement.ts";
