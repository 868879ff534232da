/** Redis channel on which the server publishes a proxy username whenever its password changes,
 * so every gateway instance drops its cached credential at once instead of after the cache TTL. */
export const CREDENTIALS_CHANNEL = "bytetoll:credentials";
