/** What other modules and the operator CLI use of the operator console: who is an operator and
 * whether they lack a factor, the service the CLI answers with, and the audit log every operator
 * action is written to. */

export {
  appendAudit,
  auditDealChange,
  auditPayoutChange,
  CLI_ACTOR,
} from "./audit.ts";
export { isOperatorEmail, operatorFlags } from "./operator-auth.ts";
export { type AdminService, createAdminService } from "./service.ts";
