import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ProxyAgent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  ORIGIN_BODY,
  type RunningInstall,
  startRunningInstall,
} from "../../server/test/helpers/running-install.ts";
import { type ByteTollMcpOptions, createByteTollMcpServer } from "../src/server.ts";

let install: RunningInstall;
let apiToken: string;
let requests = 0;
const counting: typeof fetch = (input, init) => {
  requests += 1;
  return fetch(input, init);
};

beforeAll(async () => {
  install = await startRunningInstall();
  apiToken = await install.apiToken("mcp-user@example.com");
});
afterAll(async () => {
  await install?.close();
});

/** An MCP client connected in memory to a server built with these options. */
async function connect(options: Partial<ByteTollMcpOptions> = {}) {
  const server = createByteTollMcpServer({ baseUrl: install.url, apiToken, fetch: counting, ...options });
  const client = new Client({ name: "test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  onTestFinished(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  return { isError: result.isError === true, text, json: () => JSON.parse(text) };
}

describe("the ByteToll MCP server", () => {
  it("lists every tool, each saying what it costs or changes", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        "add_auto_topup_card",
        "cancel_order",
        "create_crypto_order",
        "create_subuser",
        "delete_subuser",
        "get_auto_topup",
        "get_balance",
        "get_deal",
        "get_deal_deposit",
        "get_proxy",
        "get_transaction",
        "get_usage",
        "list_deals",
        "list_history",
        "list_hostnames",
        "list_routing_rules",
        "list_subusers",
        "list_transactions",
        "regenerate_subuser_password",
        "remove_auto_topup_card",
        "save_hostnames",
        "set_auto_topup",
        "set_routing_rule",
        "test_connection",
        "update_subuser",
        "withdraw_deal_deposit",
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.description, tool.name).toMatch(
        /Free|costs|Uses|billed|never pays|cannot be undone|Replaces|Sends/,
      );
    }
    const usage = tools.find((tool) => tool.name === "get_usage");
    expect(usage?.inputSchema.properties).toHaveProperty("group_by");
    expect(usage?.inputSchema.required).toEqual(["group_by"]);
  });

  it("answers the balance, usage, transactions, deals, hostnames and routing rules", async () => {
    const client = await connect();
    expect((await call(client, "get_balance")).json()).toEqual({ balance_gb: 1, balance_bytes: 1e9 });
    expect((await call(client, "get_usage", { group_by: "day", days: "7" })).json()).toHaveLength(7);
    expect((await call(client, "get_usage", { group_by: "proxy_type" })).json()).toEqual([
      { mobile_gb: 0, dc_gb: 0, mobile_requests: 0, dc_requests: 0, mobile_bytes: 0, dc_bytes: 0 },
    ]);
    expect((await call(client, "list_transactions", { per_page: 5 })).json()).toMatchObject({ total: 0 });
    expect((await call(client, "list_deals")).json()).toEqual([]);
    expect((await call(client, "save_hostnames", { hostnames: ["Example.com"] })).json()).toEqual([
      "example.com",
    ]);
    expect((await call(client, "list_hostnames")).json()).toEqual(["example.com"]);
    expect((await call(client, "list_routing_rules")).json()).toEqual(expect.any(Array));
  });

  it("gives a proxy URL that fetches through the gateway, and tests the connection", async () => {
    const client = await connect();
    const proxy = (await call(client, "get_proxy", { sticky: true })).json();
    expect(proxy.username).toMatch(/-session-[A-Za-z0-9]{8}$/);
    const response = await undiciFetch(install.originUrl, { dispatcher: new ProxyAgent(proxy.url) });
    expect(await response.text()).toBe(ORIGIN_BODY);
    expect((await call(client, "test_connection")).json()).toMatchObject({ ip: expect.any(String) });
  });

  it("creates a crypto order with its pay address, amount and checkout link, and pays nothing", async () => {
    const client = await connect();
    const before = (await call(client, "get_balance")).json();
    const order = (await call(client, "create_crypto_order", { amount: 9, network_type: "polygon" })).json();
    expect(order).toMatchObject({
      pay_address: expect.any(String),
      amount_usdc: expect.any(Number),
      payment_token: "USDC (Matic)",
      amount_usd: 9,
      checkout_url: `${install.url}/checkout?order_id=${order.order_id}`,
    });
    const stored = (await call(client, "get_transaction", { order_id: order.order_id })).json();
    expect(stored).toMatchObject({ payment_status: "waiting", paid_at: null });
    // Paid, the order would have added 3 GB; the earlier connection test may still be being billed.
    const after = (await call(client, "get_balance")).json();
    expect(after.balance_bytes).toBeLessThanOrEqual(before.balance_bytes);
  });

  it("cancels a waiting order, refuses it the second time, and shows it in the history", async () => {
    const client = await connect();
    const tools = (await client.listTools()).tools;
    expect(tools.find((tool) => tool.name === "cancel_order")?.description).toContain("Changes an order");
    const order = (await call(client, "create_crypto_order", { amount: 6, network_type: "base" })).json();
    const cancelled = await call(client, "cancel_order", { order_id: order.order_id });
    expect(cancelled.json()).toMatchObject({ order_id: order.order_id, payment_status: "cancelled" });
    const again = await call(client, "cancel_order", { order_id: order.order_id });
    expect(again).toMatchObject({ isError: true });
    expect(again.text).toBe(
      "ByteToll answered 409: Only an unpaid order can be cancelled: this one is cancelled.",
    );
    const history = (await call(client, "list_history", { per_page: 100 })).json();
    expect(history.data[0]).toMatchObject({ kind: "order", order: { payment_status: "cancelled" } });
    expect(history.data.at(-1)).toMatchObject({ kind: "bonus", gb: 1 });
  });

  it("refuses bad arguments with a clear error before any request is sent", async () => {
    const client = await connect();
    requests = 0;
    const cases: [string, Record<string, unknown>, string][] = [
      ["get_usage", { group_by: "week" }, "group_by must be one of day, domain, proxy_type"],
      ["create_crypto_order", { amount: 5, network_type: "bitcoin" }, "network_type must be one of solana"],
      ["create_crypto_order", { amount: 0.2, network_type: "base" }, "amount must be at least 1 USD"],
      ["get_proxy", { sticky: "a-b" }, "sticky session ids are 1–32 letters or digits"],
      ["get_proxy", { country: "zz" }, "country must be an ISO 3166-1 alpha-2 code"],
      [
        "withdraw_deal_deposit",
        { deal_id: "abcdefgh", wallet_address: "nope" },
        "Please enter a valid wallet address",
      ],
      ["set_routing_rule", { id: 1 }, "enabled must be true or false"],
      ["cancel_order", { order_id: "" }, "order_id"],
      ["list_history", { per_page: 500 }, "per_page must be between 1 and 100"],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.text, name).toContain(message);
    }
    expect(requests).toBe(0);
  });

  it("tells the assistant when the token is refused or the server is unreachable, and keeps serving", async () => {
    const refused = await connect({ apiToken: "bt_wrong" });
    const unauthorized = await call(refused, "get_balance");
    expect(unauthorized).toMatchObject({ isError: true });
    expect(unauthorized.text).toContain("Check BYTETOLL_API_TOKEN");

    const unreachable = await connect({ baseUrl: "http://127.0.0.1:9", retryBaseMs: 1 });
    const down = await call(unreachable, "get_balance");
    expect(down.isError).toBe(true);
    expect(down.text).toContain("Cannot reach http://127.0.0.1:9");
    expect(down.text).toContain("Check BYTETOLL_URL");
    expect((await unreachable.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("works with a scoped API token: what its scopes allow answers, the rest names the scope missing", async () => {
    const created = await fetch(`${install.url}/api-tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "assistant", scopes: ["usage:read", "account:read"] }),
    });
    expect(created.status, await created.clone().text()).toBe(200);
    const { data } = (await created.json()) as { data: { token: string } };
    const scoped = await connect({ apiToken: data.token });
    expect((await call(scoped, "get_balance")).json()).toMatchObject({ balance_bytes: expect.any(Number) });
    expect((await call(scoped, "get_usage", { group_by: "day", days: "7" })).json()).toHaveLength(7);
    const refused = await call(scoped, "create_crypto_order", { amount: 9, network_type: "polygon" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("orders:write");
    expect(refused.text).toContain("403");
  });
});
