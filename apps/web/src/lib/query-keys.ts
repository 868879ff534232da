/**
 * Query keys that more than one feature touches: the balance feature reads the account status,
 * the orders feature invalidates it when a purchase is made or paid. Starts with ["account"] so
 * logout's cleanup (USER_DATA_QUERY_KEYS) removes it.
 */
export const ACCOUNT_STATUS_QUERY_KEY = ["account", "status"] as const;
