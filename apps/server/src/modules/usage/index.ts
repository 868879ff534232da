/** What other modules use of usage: the operator console's reads of the metered traffic (the
 * routes are registered by the app directly). */

export { accountUsageByDay, activeAccounts, targetUsageByDay, usedBytesByDay } from "./operator-reads.ts";
