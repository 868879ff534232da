/** Every admin query's key starts here; under ["account"] so a sign-out's cleanup removes them. */
export const ADMIN_QUERY_KEY = ["account", "admin"] as const;

export const adminQueryKey = (...parts: unknown[]) => [...ADMIN_QUERY_KEY, ...parts] as const;
