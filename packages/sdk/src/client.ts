import {
  connectionTestRequestSchema,
  createOrderRequest,
  listOrdersQuery,
  parseHostnameLines,
  saveHostnamesBody,
  updateRoutingRuleBody,
  usageQuerySchema,
  withdrawRequest,
} from "@bytetoll/contracts";
import { ByteTollError } from "./errors.ts";
import { DEFAULT_RETRIES, DEFAULT_RETRY_BASE_MS, type HttpOptions, type HttpRequest, send } from "./http.ts";
import type {
  AccountStatus,
  ConnectionTestData,
  CreateOrderRequest,
  Credentials,
  Deal,
  DealDeposits,
  Hostnames,
  ListOrdersQuery,
  Order,
  OrderPage,
  ProxyServer,
  PublicConfig,
  RoutingRule,
  UsageDayRow,
  UsageDomainRow,
  UsageGrouping,
  UsageMetrics,
  UsagePeriod,
} from "./types.ts";
import { type ProxyOptions, proxyUsername } from "./username.ts";
import { validate, validateId } from "./validate.ts";

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
  /** 1, 7, 14, 30 or 90 (default 7 by day and domain, 30 by proxy type). */
  days?: UsagePeriod;
}
export type UsageByDay = UsageQueryBase & { group_by: "day" };
/** `others: true` keeps the top 5 domains and one "Others" row. */
export type UsageByDomain = UsageQueryBase & { group_by: "domain"; others?: boolean };
export type UsageByProxyType = UsageQueryBase & { group_by: "proxy_type" };
/** Any grouping at once (`others` applies to domains only). */
export type UsageQuery = UsageQueryBase & { group_by: UsageGrouping; others?: boolean };

/** A crypto order: USD amount and the USDC network to pay on. */
export type CryptoOrderRequest = Omit<CreateOrderRequest, "method">;

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
  const data = async <T>(request: HttpRequest) => (await send(http, request)).data as T;

  async function usage(query: UsageByDay): Promise<UsageDayRow[]>;
  async function usage(query: UsageByDomain): Promise<UsageDomainRow[]>;
  async function usage(query: UsageByProxyType): Promise<UsageMetrics[]>;
  async function usage(query: UsageQuery): Promise<UsageDayRow[] | UsageDomainRow[] | UsageMetrics[]>;
  async function usage(query: UsageQuery) {
    const others = query?.others;
    const checked = validate(usageQuerySchema, {
      group_by: query?.group_by,
      days: query?.days === undefined ? undefined : String(query.days),
      others: typeof others === "boolean" ? String(others) : others,
    });
    return data<unknown[]>({ method: "GET", path: "/proxies/usage", query: checked });
  }

  async function credentials(proxy: ProxyOptions = {}): Promise<Credentials> {
    const username = proxyUsername("", proxy);
    const latest = await data<Credentials>({ method: "GET", path: "/credentials/latest" });
    return { ...latest, username: `${latest.username}${username}` };
  }

  const gateway = () => data<ProxyServer>({ method: "GET", path: "/gateway" });

  async function proxy(options: ProxyOptions = {}): Promise<ProxySettings> {
    const [{ username, password }, server] = await Promise.all([credentials(options), gateway()]);
    const host = server.host;
    const port = server.http_port;
    const auth = `${encodeURIComponent(username)}:${encodeURIComponent(password)}`;
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
    /** Proxy settings for an HTTP client; `url` is `http://user:pass@host:port`. */
    proxy,
    /** The proxy URL alone: `http://user:pass@host:port`. */
    proxyUrl: async (options: ProxyOptions = {}) => (await proxy(options)).url,
    /** Fetches IP information through the gateway with these credentials (uses a few KB of data). */
    async testConnection(options: ProxyOptions = {}): Promise<ConnectionTestData> {
      const settings = await proxy(options);
      const body = validate(connectionTestRequestSchema, {
        username: settings.username,
        password: settings.password,
        proxy_host: settings.host,
        proxy_port: settings.port,
      });
      return data<ConnectionTestData>({ method: "POST", path: "/credentials/test", body });
    },
    transactions: {
      /** Top-up orders, newest first: `{data, current_page, last_page, per_page, total, from, to}`. */
      async list(query: ListOrdersQuery = {}): Promise<OrderPage> {
        const checked = validate(listOrdersQuery, query);
        const { success: _success, ...page } = await send(http, {
          method: "GET",
          path: "/transactions",
          query: { page: String(checked.page), per_page: String(checked.per_page), source: checked.source },
        });
        return page as OrderPage;
      },
      /** One order and its payment status. */
      get: async (orderId: string) =>
        data<Order>({ method: "GET", path: `/transactions/${validateId("orderId", orderId)}` }),
      /** Creates an order to pay in USDC: the answer holds the pay address and amount. Pays nothing. */
      async createCryptoOrder(request: CryptoOrderRequest): Promise<Order> {
        const body = validate(createOrderRequest, { ...request, method: "crypto" });
        return data<Order>({ method: "POST", path: "/transactions", body });
      },
    },
    deals: {
      /** Live and pending deals, and those that ended in the last 7 days. */
      list: () => data<Deal[]>({ method: "GET", path: "/deals/latestv2" }),
      get: async (dealId: string) =>
        data<Deal>({ method: "GET", path: `/deals/${validateId("dealId", dealId)}` }),
      /** The caller's deposit in a group buy. */
      deposits: async (dealId: string) =>
        data<DealDeposits>({ method: "GET", path: `/deals/${validateId("dealId", dealId)}/deposits` }),
      /** Asks for the caller's group-buy deposit back to a wallet; answers the server's message. */
      async withdraw(dealId: string, walletAddress: string): Promise<string> {
        const path = `/deals/${validateId("dealId", dealId)}/withdraw`;
        const body = validate(withdrawRequest, { wallet_address: walletAddress });
        return (await send(http, { method: "POST", path, body })).message as string;
      },
    },
    hostnames: {
      /** The host names Intelligence learns for the caller. */
      list: async () =>
        (await data<Hostnames>({ method: "GET", path: "/settings/hostnames" })).hostnames.map(
          (h) => h.hostname,
        ),
      /** Replaces the host names (bare, lower-case, de-duplicated); answers the saved list. */
      async save(hostnames: string[]): Promise<string[]> {
        const body = validate(saveHostnamesBody, { hostnames });
        const parsed = parseHostnameLines(body.hostnames);
        if (!parsed.ok) throw ByteTollError.invalidArgument(parsed.message);
        const saved = await data<Hostnames>({ method: "POST", path: "/settings/hostnames", body });
        return saved.hostnames.map((h) => h.hostname);
      },
    },
    routingRules: {
      /** The caller's routing rules with the learner's verdict, evidence and savings. */
      list: () => data<RoutingRule[]>({ method: "GET", path: "/settings/routing/rules" }),
      /** Routes a domain over datacenter (`true`) or mobile (`false`); the learner keeps your choice. */
      async setEnabled(ruleId: number, enabled: boolean): Promise<RoutingRule> {
        if (!Number.isSafeInteger(ruleId) || ruleId < 1) {
          throw ByteTollError.invalidArgument("ruleId must be a whole number of at least 1");
        }
        const body = validate(updateRoutingRuleBody, { enabled });
        return data<RoutingRule>({ method: "PATCH", path: `/settings/routing/rules/${ruleId}`, body });
      },
    },
  };
}

export type ByteTollClient = ReturnType<typeof createClient>;
