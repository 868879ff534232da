import {
  countryCodeProblem,
  createOrderRequest,
  historyQuery,
  listOrdersQuery,
  NETWORKS,
  SESSION_ID_PATTERN,
  SESSION_MINUTES_MAX,
  SESSION_MINUTES_MIN,
  saveHostnamesBody,
  updateRoutingRuleBody,
  usageQuerySchema,
  withdrawRequest,
} from "@bytetoll/contracts";
import { type ByteTollClient, ByteTollError, type UsagePeriod } from "@bytetoll/sdk";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { registerSubuserTools } from "./subuser-tools.ts";

const FREE = "Free: reads only, changes nothing.";

const proxyOptions = z.object({
  sticky: z
    .union([
      z.boolean(),
      z.string().regex(SESSION_ID_PATTERN, "sticky session ids are 1–32 letters or digits"),
    ])
    .optional()
    .describe("Keep one exit IP: true for a new random session, or a session id of 1–32 letters or digits"),
  sessionMinutes: z
    .number()
    .int()
    .min(SESSION_MINUTES_MIN)
    .max(SESSION_MINUTES_MAX)
    .optional()
    .describe("Minutes a sticky session keeps its exit after its last use (1–1440, default 10)"),
  country: z
    .string()
    .refine((code) => countryCodeProblem(code) === null, "country must be an ISO 3166-1 alpha-2 code")
    .optional()
    .describe("Exit country, an ISO 3166-1 alpha-2 code such as us or de"),
  smart: z
    .boolean()
    .optional()
    .describe("Smart routing: domains found safe go over cheaper datacenter exits"),
  protocol: z
    .enum(["http", "socks5"])
    .optional()
    .describe("http (default) for an HTTP proxy URL, socks5 for a socks5h:// URL (SOCKS5 clients)"),
});
const dealId = z.object({ deal_id: z.string().min(1).max(64).describe("The deal's id, as deals list it") });
const { amount, deal_id, quantity } = createOrderRequest.shape;
const cryptoOrder = z.object({
  amount,
  network_type: z.enum(NETWORKS, { error: "network_type must be one of solana, polygon, base, ethereum" }),
  deal_id,
  quantity,
});

/** The text an assistant reads: the data as JSON, or what went wrong and what to check. */
function answer(data: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(data, null, 2) }] };
}

function explain(error: unknown): CallToolResult {
  let text = error instanceof Error ? error.message : String(error);
  if (error instanceof ByteTollError && error.kind === "network") {
    text = `${text}. Check BYTETOLL_URL and that the ByteToll server is running.`;
  } else if (error instanceof ByteTollError && error.status === 401) {
    text =
      "ByteToll refused the API token (401 Unauthorized). Check BYTETOLL_API_TOKEN: copy it from the Connect page.";
  } else if (error instanceof ByteTollError && error.kind === "response") {
    text = `ByteToll answered ${error.status}: ${text}`;
  }
  return { content: [{ type: "text", text }], isError: true };
}

const run = async (call: () => Promise<unknown>): Promise<CallToolResult> => {
  try {
    return answer(await call());
  } catch (error) {
    return explain(error);
  }
};

const readOnly = { readOnlyHint: true, openWorldHint: false };

/** Balance, usage, proxy credentials and the connection test. */
function registerAccountTools(server: McpServer, sdk: ByteTollClient) {
  server.registerTool(
    "get_balance",
    {
      title: "Data balance",
      description: `Your remaining data balance in GB and bytes. ${FREE}`,
      annotations: readOnly,
    },
    () => run(() => sdk.balance()),
  );

  server.registerTool(
    "get_usage",
    {
      title: "Usage",
      description:
        "Data and requests used, by UTC day, by domain, by proxy type (mobile vs datacenter) or by " +
        "sub-user, over the last 1, 7, 14, 30 or 90 days (days as text); subuser (an id, or main) keeps " +
        `one sub-user's usage. ${FREE}`,
      inputSchema: usageQuerySchema,
      annotations: readOnly,
    },
    ({ group_by, days, others, subuser }) =>
      run(() =>
        sdk.usage({
          group_by,
          days: days === undefined ? undefined : (Number(days) as UsagePeriod),
          others: others === undefined ? undefined : others === "true",
          subuser,
        }),
      ),
  );

  server.registerTool(
    "get_proxy",
    {
      title: "Proxy credentials and URL",
      description:
        "The proxy username, password, host, port and a ready URL: http://user:pass@host:port for HTTP " +
        "clients, or with protocol socks5 socks5h://user:pass@host:port for SOCKS5 clients (CONNECT only). " +
        `${FREE} Traffic sent through the proxy is billed per GB from your balance.`,
      inputSchema: proxyOptions,
      annotations: readOnly,
    },
    (options) => run(() => sdk.proxy(options)),
  );

  server.registerTool(
    "test_connection",
    {
      title: "Test the proxy",
      description:
        "Fetches IP information through the proxy with your credentials and tells where the request left " +
        "the network. Uses a few KB of your data balance.",
      inputSchema: proxyOptions,
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: true },
    },
    (options) => run(() => sdk.testConnection(options)),
  );
}

/** Top-up orders: read them, and create a crypto order (never paid by the tool). */
function registerOrderTools(server: McpServer, sdk: ByteTollClient, appUrl: string) {
  server.registerTool(
    "list_transactions",
    {
      title: "Top-up orders",
      description: `Your top-up orders (crypto and card), newest first, a page at a time. ${FREE}`,
      inputSchema: listOrdersQuery,
      annotations: readOnly,
    },
    (query) => run(() => sdk.transactions.list(query)),
  );

  server.registerTool(
    "list_history",
    {
      title: "Balance history",
      description:
        "Your orders and the balance changes that are not orders (the free GB of a new account, operator " +
        `adjustments, group-buy deposits credited, refunds and chargebacks), newest first, a page at a time. ${FREE}`,
      inputSchema: historyQuery,
      annotations: readOnly,
    },
    (query) => run(() => sdk.transactions.history(query)),
  );

  server.registerTool(
    "get_transaction",
    {
      title: "One order",
      description: `One top-up order and its payment status. ${FREE}`,
      inputSchema: z.object({ order_id: z.string().min(1).max(64) }),
      annotations: readOnly,
    },
    ({ order_id }) => run(() => sdk.transactions.get(order_id)),
  );

  server.registerTool(
    "create_crypto_order",
    {
      title: "Create a USDC top-up order",
      description:
        "Creates an order to buy data with USDC on solana, polygon, base or ethereum and returns the pay " +
        "address, the exact USDC amount and a checkout link. It never pays: a person sends the USDC. " +
        "Creates a pending order (it expires after 60 minutes unpaid); costs nothing by itself.",
      inputSchema: cryptoOrder,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (request) =>
      run(async () => {
        const order = await sdk.transactions.createCryptoOrder(request);
        return {
          order_id: order.order_id,
          pay_address: order.pay_address,
          amount_usdc: order.price_amount,
          payment_token: order.payment_token,
          amount_usd: order.amount_usd,
          gb: order.gb,
          expires_at: order.expires_at,
          checkout_url: `${appUrl.replace(/\/+$/, "")}/checkout?order_id=${encodeURIComponent(order.order_id)}`,
        };
      }),
  );

  server.registerTool(
    "cancel_order",
    {
      title: "Cancel an unpaid order",
      description:
        "Changes an order: cancels one of your top-up orders that is still waiting for its payment, so it " +
        "can no longer be paid; this cannot be undone. Costs nothing. A paid, expired or already cancelled " +
        "order is refused and stays as it is; a payment that still arrives for a cancelled order is credited.",
      inputSchema: z.object({ order_id: z.string().min(1).max(64).describe("The order's id") }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    ({ order_id }) => run(() => sdk.transactions.cancel(order_id)),
  );
}

/** Flash sales and group buys. */
function registerDealTools(server: McpServer, sdk: ByteTollClient) {
  server.registerTool(
    "list_deals",
    {
      title: "Deals",
      description: `Flash sales and group buys: live, upcoming, and those that ended in the last 7 days. ${FREE}`,
      annotations: readOnly,
    },
    () => run(() => sdk.deals.list()),
  );

  server.registerTool(
    "get_deal",
    {
      title: "One deal",
      description: `One deal by its id. ${FREE}`,
      inputSchema: dealId,
      annotations: readOnly,
    },
    ({ deal_id }) => run(() => sdk.deals.get(deal_id)),
  );

  server.registerTool(
    "get_deal_deposit",
    {
      title: "Your group-buy deposit",
      description: `How much USD you have deposited in a group buy. ${FREE}`,
      inputSchema: dealId,
      annotations: readOnly,
    },
    ({ deal_id }) => run(() => sdk.deals.deposits(deal_id)),
  );

  server.registerTool(
    "withdraw_deal_deposit",
    {
      title: "Withdraw a group-buy deposit",
      description:
        "Takes your whole deposit out of a group buy and asks the operator to send it to this wallet " +
        "(0x… or Solana address). You leave the group buy; this cannot be undone.",
      inputSchema: dealId.extend(withdrawRequest.shape),
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    ({ deal_id, wallet_address }) =>
      run(async () => ({ message: await sdk.deals.withdraw(deal_id, wallet_address) })),
  );
}

/** Intelligence: hostname hints and routing rules. */
function registerIntelligenceTools(server: McpServer, sdk: ByteTollClient) {
  server.registerTool(
    "list_hostnames",
    {
      title: "Intelligence hostnames",
      description: `The host names Intelligence learns routing for. ${FREE}`,
      annotations: readOnly,
    },
    () => run(() => sdk.hostnames.list()),
  );

  server.registerTool(
    "save_hostnames",
    {
      title: "Replace the Intelligence hostnames",
      description:
        "Replaces your whole list of host names (at most 500) that Intelligence probes to learn which can go " +
        "over cheaper datacenter exits. Probes are free; names left out are no longer learned.",
      inputSchema: saveHostnamesBody,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ hostnames }) => run(() => sdk.hostnames.save(hostnames)),
  );

  server.registerTool(
    "list_routing_rules",
    {
      title: "Routing rules",
      description: `Your smart-routing rules: per domain, datacenter or mobile, the learner's verdict and savings. ${FREE}`,
      annotations: readOnly,
    },
    () => run(() => sdk.routingRules.list()),
  );

  server.registerTool(
    "set_routing_rule",
    {
      title: "Switch a routing rule",
      description:
        "Sends a domain over datacenter exits (enabled: true, cheaper per GB; some sites block them) or " +
        "mobile exits (false) for usernames with smart routing. The learner keeps your choice.",
      inputSchema: updateRoutingRuleBody.extend({ id: z.number().int().min(1).describe("The rule's id") }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    ({ id, enabled }) => run(() => sdk.routingRules.setEnabled(id, enabled)),
  );
}

/** Every ByteToll tool, each calling the API through the SDK with the configured token. */
export function registerTools(server: McpServer, sdk: ByteTollClient, appUrl: string) {
  registerAccountTools(server, sdk);
  registerOrderTools(server, sdk, appUrl);
  registerDealTools(server, sdk);
  registerIntelligenceTools(server, sdk);
  registerSubuserTools(server, sdk, run);
}
