import {
  countryCodeProblem,
  SESSION_ID_PATTERN,
  SESSION_MINUTES_MAX,
  SESSION_MINUTES_MIN,
  saveHostnamesBody,
  updateRoutingRuleBody,
  usageQuerySchema,
  withdrawRequest,
} from "@bytetoll/contracts";
import type { ByteTollClient, UsagePeriod } from "@bytetoll/sdk";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { registerAutoTopupTools } from "./auto-topup-tools.ts";
import { registerOrderTools } from "./order-tools.ts";
import { registerSubuserTools } from "./subuser-tools.ts";
import { FREE, readOnly, run } from "./tool-kit.ts";

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
  registerAutoTopupTools(server, sdk, run);
}
