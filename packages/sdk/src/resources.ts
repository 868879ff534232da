import {
  createOrderRequest,
  historyQuery,
  listOrdersQuery,
  parseHostnameLines,
  saveHostnamesBody,
  updateRoutingRuleBody,
  withdrawRequest,
} from "@bytetoll/contracts";
import { ByteTollError } from "./errors.ts";
import { dataOf, type HttpOptions, send } from "./http.ts";
import type {
  CreateOrderRequest,
  Deal,
  DealDeposits,
  HistoryPage,
  HistoryQuery,
  Hostnames,
  ListOrdersQuery,
  Order,
  OrderPage,
  RoutingRule,
} from "./types.ts";
import { validate, validateId } from "./validate.ts";

/** A crypto order: USD amount and the USDC network to pay on. */
export type CryptoOrderRequest = Omit<CreateOrderRequest, "method">;

/** Top-up orders, and the history of every balance change that is not usage. */
export function transactionsApi(http: HttpOptions) {
  const data = dataOf(http);
  return {
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
    /** Orders and the balance changes that are not orders (free GB, operator adjustments, deposits
     * credited, refunds and chargebacks) in one list, newest first: rows of `kind` "order" carry
     * the order, the others `gb` (negative when taken back), `note` and `order_id`. */
    async history(query: HistoryQuery = {}): Promise<HistoryPage> {
      const checked = validate(historyQuery, query);
      const { success: _success, ...page } = await send(http, {
        method: "GET",
        path: "/history",
        query: { page: String(checked.page), per_page: String(checked.per_page) },
      });
      return page as HistoryPage;
    },
    /** One order and its payment status. */
    get: async (orderId: string) =>
      data<Order>({ method: "GET", path: `/transactions/${validateId("orderId", orderId)}` }),
    /** Creates an order to pay in USDC: the answer holds the pay address and amount. Pays nothing. */
    async createCryptoOrder(request: CryptoOrderRequest): Promise<Order> {
      const body = validate(createOrderRequest, { ...request, method: "crypto" });
      return data<Order>({ method: "POST", path: "/transactions", body });
    },
    /** Cancels one of your orders that is still waiting for its payment; answers it `cancelled`.
     * Any other order is refused (409) and stays as it is. A payment that still arrives for a
     * cancelled order is credited. */
    cancel: async (orderId: string) =>
      data<Order>({ method: "POST", path: `/transactions/${validateId("orderId", orderId)}/cancel` }),
  };
}

/** Flash sales and group buys. */
export function dealsApi(http: HttpOptions) {
  const data = dataOf(http);
  return {
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
  };
}

/** The host names Intelligence learns. */
export function hostnamesApi(http: HttpOptions) {
  const data = dataOf(http);
  return {
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
  };
}

/** Smart-routing rules: per domain, datacenter or mobile. */
export function routingRulesApi(http: HttpOptions) {
  const data = dataOf(http);
  return {
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
  };
}
