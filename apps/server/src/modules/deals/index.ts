/**
 * What other modules use of deals: the service (orders reserve stock and price deal orders through
 * it; the settlement asks it whether a payment is a deposit it holds), the JSON views, and the
 * record hook of an operator's action, and the operator console's reads (progress, payouts) and
 * edit of a pending deal. Deals plug into the settlement through `settleOrder` and
 * its typed `DealOutcome`; they import nothing of payments.
 */
export { toDealView, toPayoutView } from "./deal-view.ts";
export {
  dealProgress,
  lockDeal,
  payoutOwnerEmails,
  payoutsForOperator,
  saveDealEdit,
} from "./operator-reads.ts";
export {
  createDealsService,
  type DealOrderWrites,
  type DealOutcome,
  type DealPaymentReading,
  type DealsService,
  type DealTerms,
  type RecordChange,
} from "./service.ts";
export { DEAL_STATUS, DEPOSIT_STATUS, PAYOUT_STATUS } from "./status-tables.ts";
