export {
  type ByteTollClient,
  type ClientOptions,
  createClient,
  type ProxySettings,
  type UsageByDay,
  type UsageByDomain,
  type UsageByProxyType,
  type UsageBySubuser,
  type UsageQuery,
} from "./client.ts";
export { ByteTollError, type ByteTollErrorKind } from "./errors.ts";
export type { CryptoOrderRequest } from "./resources.ts";
export type * from "./types.ts";
export type { ProxyOptions } from "./username.ts";
export { verifyWebhook, WEBHOOK_TOLERANCE_SECONDS } from "./webhook.ts";
