/** What other modules use of API tokens: the operator console's look at a token and the
 * announcement that an account's token must be checked again. */

export { announceAccountChange, tokenCreatedAt } from "./operator-reads.ts";
