/** What other modules use of auth: the operator console's reads and writes of accounts and
 * sessions (the routes and the sign-in service are registered by the app directly). */

export {
  type AccountRow,
  accountByEmail,
  accountById,
  accountCounts,
  accountEmails,
  accountEmailsIn,
  accountExists,
  accountLabels,
  accountsPage,
  type CustomerRow,
  customerById,
  customersPage,
  lockCustomer,
  revokeLiveSessions,
  sessionSummary,
  setCustomerDisabled,
} from "./operator-reads.ts";
