import { connectionTestRequestSchema, usageQuerySchema } from "@bytetoll/contracts";
import { autoTopupApi } from "./auto-topup.ts";
import { ByteTollError } from "./errors.ts";
import { DEFAULT_RETRIES, DEFAULT_RETRY_BASE_MS, dataOf, type HttpOptions } from "./http.ts";
import { dealsApi, hostnamesApi, routingRulesApi, transactionsApi } from "./resources.ts";
import { subusersApi } from "./subusers.ts";
import type {
  AccountStatus,
  ConnectionTestData,
  Credentials,
  ProxyServer,
  PublicConfig,
  UsageDayRow,
  UsageDomainRow,
  UsageGrouping,
  UsageMetrics,
  UsagePeriod,
  UsageSubuserRow,
} from "./types.ts";
import { type ProxyOptions, proxyUsername } from "./username.ts";
import { validate } from "./validate.ts";

export interface ClientOptions {
  /** The install's address (its APP_URL), e.g. `https://bytetoll.example.com`. */
  baseUrl: string;
  /** The API token of the Connect page (`bt_…`). */
  apiToken: string;
  /** Retries of a read after a network error or a 5xx (never after a 4xx); default 3. */
  retries?: number;
  /** First retry delay in ms, doubling each time and capped at 30 s; default 1000. */
  retryBaseMs?: number;
  /** Another fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

interface UsageQueryBase {
  /** 1, 7, 14, 30 or 90 (default 7 by day and domain, 30 by proxy type and sub-user). */
  days?: UsagePeriod;
  /** Only this sub-user's usage (its id), or "main" for your own credentials'. */
  subuser?: string;
}
export type UsageByDay = UsageQueryBase & { group_by: "day" };
/** `others: true` keeps the top 5 domains and one "Others" row. */
export type UsageByDomain = UsageQueryBase & { group_by: "domain"; others?: boolean };
export type UsageByProxyType = UsageQueryBase & { group_by: "proxy_type" };
/** One row per sub-user (value: its label) and one for your own credentials (subuser_id null). */
export type UsageBySubuser = UsageQueryBase & { group_by: "subuser" };
/** Any grouping at once (`others` applies to domains only). */
export type UsageQuery = UsageQueryBase & { group_by: UsageGrouping; others?: boolean };

/** Proxy settings ready for undici, axios or got. */
export interface ProxySettings {
  username: string;
  password: string;
  host: string;
  port: number;
  /** `http://user:pass@host:port` (user and password URL-encoded). */
  url: string;
}

/** A host for a URL: IPv6 literals need brackets. */
const urlHost = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);

function checkedOptions(options: ClientOptions): HttpOptions {
  const baseUrl = options?.baseUrl;
  if (typeof baseUrl !== "string" || !/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl)) {
    throw ByteTollError.invalidArgument("baseUrl must be an http:// or https:// URL");
  }
  if (typeof options.apiToken !== "string" || options.apiToken.trim() === "") {
    throw ByteTollError.invalidArgument("apiToken is required (the API token of the Connect page)");
  }
  const retries = options.retries ?? DEFAULT_RETRIES;
  const retryBaseMs = options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
  if (!Number.isInteger(retries) || retries < 0 || !Number.isFinite(retryBaseMs) || retryBaseMs < 0) {
    throw ByteTollError.invalidArgument("retries and retryBaseMs must be numbers of at least 0");
  }
  return { baseUrl, apiToken: options.apiToken.trim(), retries, retryBaseMs, fetch: options.fetch ?? fetch };
}

/** A ByteToll client: every call the dashboard makes, with the API token. */
export function createClient(options: ClientOptions) {
  const http = checkedOptions(options);
  const data = dataOf(http);

  async function usage(query: UsageByDay): Promise<UsageDayRow[]>;
  async function usage(query: UsageByDomain): Promise<UsageDomainRow[]>;
  async function usage(query: UsageByProxyType): Promise<UsageMetrics[]>;
  async function usage(query: UsageBySubuser): Promise<UsageSubuserRow[]>;
  async function usage(
    query: UsageQuery,
  ): Promise<UsageDayRow[] | UsageDomainRow[] | UsageMetrics[] | UsageSubuserRow[]>;
  async function usage(query: UsageQuery) {
    const others = query?.others;
    const checked = validate(usageQuerySchema, {
      group_by: query?.group_by,
      days: query?.days === undefined ? undefined : String(query.days),
      others: typeof others === "boolean" ? String(others) : others,
      subuser: query?.subuser,
    });
    return data<unknown[]>({ method: "GET", path: "/proxies/usage", query: checked });
  }

  async function credentials(proxy: ProxyOptions = {}): Promise<Credentials> {
    const suffix = proxyUsername("", proxy);
    const latest = await data<Credentials>({ method: "GET", path: "/credentials/latest" });
    return { ...latest, username: `${latest.username}${suffix}` };
  }

  const gateway = () => data<ProxyServer>({ method: "GET", path: "/gateway" });

  async function proxy(options: ProxyOptions = {}): Promise<ProxySettings> {
    const [{ username, password }, server] = await Promise.all([credentials(options), gateway()]);
    const host = server.host;
    const auth = `${encodeURIComponent(username)}:${encodeURIComponent(password)}`;
    if (options.protocol === "socks5") {
      if (server.socks_port === null)
        throw ByteTollError.invalidArgument("SOCKS5 is turned off on this install");
      const port = server.socks_port;
      return { username, password, host, port, url: `socks5h://${auth}@${urlHost(host)}:${port}` };
    }
    if (options.protocol !== undefined && options.protocol !== "http") {
      throw ByteTollError.invalidArgument("protocol must be http or socks5");
    }
    const port = server.http_port;
    return { username, password, host, port, url: `http://${auth}@${urlHost(host)}:${port}` };
  }

  return {
    /** Prices, free allowance, gateway address and links of this install (no token needed). */
    config: () => data<PublicConfig>({ method: "GET", path: "/config" }),
    /** The proxy server: host, fixed IP and ports. */
    gateway,
    /** The data balance, in GB (2 decimals) and bytes. */
    balance: () => data<AccountStatus>({ method: "GET", path: "/account/status" }),
    /** Usage by UTC day, by domain, or by proxy type. */
    usage,
    /** Proxy username (with the sticky / smart options) and password. */
    credentials,
    /** Proxy settings; `url` is `http://user:pass@host:port`, or with `protocol: "socks5"`
     * `socks5h://user:pass@host:port` (the proxy resolves host names). */
    proxy,
    /** The proxy URL alone: `http://user:pass@host:port` (or `socks5h://…` with `protocol: "socks5"`). */
    proxyUrl: async (options: ProxyOptions = {}) => (await proxy(options)).url,
    /** Fetches IP information through the gateway with these credentials (uses a few KB of data). */
    async testConnection(options: ProxyOptions = {}): Promise<ConnectionTestData> {
      // The connection test speaks HTTP to the proxy, whichever URL the caller otherwise wants.
      const settings = await proxy({ ...options, protocol: "http" });
      const body = validate(connectionTestRequestSchema, {
        username: settings.username,
        password: settings.password,
        proxy_host: settings.host,
        proxy_port: settings.port,
      });
      return data<ConnectionTestData>({ method: "POST", path: "/credentials/test", body });
    },
    transactions: transactionsApi(http),
    deals: dealsApi(http),
    hostnames: hostnamesApi(http),
    routingRules: routingRulesApi(http),
    subusers: subusersApi(http),
    autoTopup: autoTopupApi(http),
  };
}

export type ByteTollClient = ReturnType<typeof createClient>;
