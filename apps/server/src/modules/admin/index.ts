/** What other modules use of the operator console: who is an operator. */
export { isOperatorEmail } from "./operator-auth.ts";
