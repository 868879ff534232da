/** What other modules use of account: the operator console's reads of the ledger, and the billing
 * details as they are now (invoices copy them). The routes are registered by the app directly. */

export { type BillingSnapshot, billingSnapshot } from "./billing-snapshot.ts";
export { adjustmentByReference, ledgerForOrder, ledgerPage, soldBytesByDay } from "./ledger-reads.ts";
