/** The cached list of the user's payouts: the orders history reads it, a deal withdrawal (which
 * makes a payout) drops it. */
export const PAYOUTS_QUERY_KEY = ["payouts"] as const;
