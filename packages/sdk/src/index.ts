export {
  type ByteTollClient,
  type ClientOptions,
  type CryptoOrderRequest,
  createClient,
  type ProxySettings,
  type UsageByDay,
  type UsageByDomain,
  type UsageByProxyType,
  type UsageQuery,
} from "./client.ts";
export { ByteTollError, type ByteTollErrorKind } from "./errors.ts";
export type * from "./types.ts";
export type { ProxyOptions } from "./username.ts";
