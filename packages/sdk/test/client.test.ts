import http from "node:http";
import { startFaultProxy } from "@bytetoll/db/fault-proxy";
import { SocksProxyAgent } from "socks-proxy-agent";
import { ProxyAgent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  ADMIN_TOKEN,
  ORIGIN_BODY,
  type RunningInstall,
  startRunningInstall,
} from "../../../apps/server/test/helpers/running-install.ts";
import { ByteTollError, createClient } from "../src/index.ts";

let install: RunningInstall;
let apiToken: string;

beforeAll(async () => {
  install = await startRunningInstall();
  apiToken = await install.apiToken("sdk-user@example.com");
});
afterAll(async () => {
  await install?.close();
});

const client = () => createClient({ baseUrl: install.url, apiToken });

/** The error a call fails with (the test fails if it succeeds). */
async function failure(call: () => Promise<unknown>): Promise<ByteTollError> {
  const error = await call().then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ByteTollError);
  return error as ByteTollError;
}

async function createDeal(deal_type: "flash_sale" | "group_buy") {
  const response = await install.t.app.inject({
    method: "POST",
    url: "/admin/deals",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: {
      deal_type,
      deal_title: `A ${deal_type}`,
      deal_price: 1.5,
      deal_start_time: new Date(Date.now() - 60_000).toISOString(),
      deal_end_time: new Date(Date.now() + 86_400_000).toISOString(),
      deal_target_gb: 1000,
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json().data.id as string;
}

describe("the account", () => {
  it("reads the balance, the public configuration and the gateway", async () => {
    const sdk = client();
    expect(await sdk.balance()).toEqual({ balance_gb: 1, balance_bytes: 1e9 });
    expect((await sdk.config()).gateway).toEqual({
      host: "127.0.0.1",
      http_port: install.gatewayPort,
      https_port: expect.any(Number),
      socks_port: install.gatewaySocksPort,
      // The test gateway's exits are `direct` without a country.
      exit_countries: [],
    });
    expect(await sdk.gateway()).toMatchObject({
      host: "127.0.0.1",
      http_port: install.gatewayPort,
      socks_port: install.gatewaySocksPort,
    });
  });

  it("reads usage by day, by domain and by proxy type", async () => {
    const sdk = client();
    const days = await sdk.usage({ group_by: "day", days: 14 });
    expect(days).toHaveLength(14);
    expect(days[0]).toEqual({
      date: expect.any(String),
      mobile_gb: 0,
      dc_gb: 0,
      mobile_requests: 0,
      dc_requests: 0,
      mobile_bytes: 0,
      dc_bytes: 0,
    });
    expect(await sdk.usage({ group_by: "domain", others: true })).toEqual([]);
    expect(await sdk.usage({ group_by: "proxy_type" })).toEqual([
      { mobile_gb: 0, dc_gb: 0, mobile_requests: 0, dc_requests: 0, mobile_bytes: 0, dc_bytes: 0 },
    ]);
  });

  it("refuses a wrong token with the server's 401 and message, without retrying", async () => {
    const sdk = createClient({ baseUrl: install.url, apiToken: "bt_not-a-token" });
    const started = Date.now();
    const error = await failure(() => sdk.balance());
    expect(error).toMatchObject({ status: 401, kind: "response", message: "Unauthorized" });
    // A retry would have waited at least a second.
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("proxy credentials", () => {
  it("gives the username with the sticky and smart options, and a proxy URL that works", async () => {
    const sdk = client();
    const plain = await sdk.credentials();
    expect(plain.username).toMatch(/^[^-]+$/);
    const sticky = await sdk.credentials({ sticky: "abcd1234", smart: true });
    expect(sticky.username).toBe(`${plain.username}-session-abcd1234-routing-smart`);
    expect((await sdk.credentials({ sticky: true })).username).toMatch(/-session-[A-Za-z0-9]{8}$/);
    const targeted = await sdk.credentials({
      sticky: "s1",
      sessionMinutes: 60,
      country: "DE",
      city: "berlin",
    });
    expect(targeted.username).toBe(`${plain.username}-country-de-city-berlin-session-s1-sesstime-60`);

    const url = await sdk.proxyUrl();
    expect(url).toBe(
      `http://${encodeURIComponent(plain.username)}:${encodeURIComponent(plain.password)}@127.0.0.1:${install.gatewayPort}`,
    );
    const response = await undiciFetch(install.originUrl, { dispatcher: new ProxyAgent(url) });
    expect(await response.text()).toBe(ORIGIN_BODY);
  });

  it("gives a socks5h:// URL for SOCKS5 clients that works, with the same username options", async () => {
    const sdk = client();
    const settings = await sdk.proxy({ protocol: "socks5", smart: true });
    expect(settings.url).toBe(
      `socks5h://${encodeURIComponent(settings.username)}:${encodeURIComponent(settings.password)}@127.0.0.1:${install.gatewaySocksPort}`,
    );
    expect(settings.username).toMatch(/-routing-smart$/);
    const agent = new SocksProxyAgent(settings.url);
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get(install.originUrl, { agent }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (part: string) => {
            text += part;
          });
          res.on("end", () => resolve(text));
        })
        .on("error", reject);
    });
    agent.destroy();
    expect(body).toBe(ORIGIN_BODY);
    const refused = await failure(() => sdk.proxyUrl({ protocol: "ftp" as "http" }));
    expect(refused.message).toBe("protocol must be http or socks5");
  });

  it("tests the connection through the gateway", async () => {
    const data = await client().testConnection();
    expect(data).toMatchObject({ ip: expect.any(String), country: expect.any(String) });
  });
});

describe("orders", () => {
  it("creates a crypto order, lists it and reads it", async () => {
    const sdk = client();
    const order = await sdk.transactions.createCryptoOrder({ amount: 12, network_type: "base" });
    expect(order).toMatchObject({
      method: "crypto",
      network_type: "base",
      amount_usd: 12,
      payment_status: "waiting",
      pay_address: expect.any(String),
      price_amount: expect.any(Number),
    });
    const page = await sdk.transactions.list({ per_page: 5 });
    expect(page).toMatchObject({ current_page: 1, per_page: 5, total: 1, from: 1, to: 1 });
    expect(page.data.map((row) => row.order_id)).toEqual([order.order_id]);
    expect(await sdk.transactions.get(order.order_id)).toEqual(order);
  });

  it("cancels a waiting order once, then answers the server's 409", async () => {
    const sdk = client();
    const order = await sdk.transactions.createCryptoOrder({ amount: 3, network_type: "solana" });
    expect(await sdk.transactions.cancel(order.order_id)).toMatchObject({
      order_id: order.order_id,
      payment_status: "cancelled",
    });
    expect((await sdk.transactions.get(order.order_id)).payment_status).toBe("cancelled");
    const again = await failure(() => sdk.transactions.cancel(order.order_id));
    expect(again).toMatchObject({
      status: 409,
      message: "Only an unpaid order can be cancelled: this one is cancelled.",
    });
    const unknown = await failure(() => sdk.transactions.cancel("no-such-order"));
    expect(unknown).toMatchObject({ status: 404, message: "Order not found" });
  });

  it("reads the history: the free GB beside the orders, newest first", async () => {
    const history = await client().transactions.history({ per_page: 100 });
    expect(history.data.at(-1)).toMatchObject({ kind: "bonus", gb: 1, order_id: null });
    const orders = history.data.filter((row) => row.kind === "order");
    expect(orders.length).toBeGreaterThan(0);
    expect(history.total).toBe(history.data.length);
  });

  it("answers the server's 404 and message for an unknown order", async () => {
    const error = await failure(() => client().transactions.get("no-such-order"));
    expect(error).toMatchObject({ status: 404, kind: "response", message: "Order not found" });
  });
});

describe("deals", () => {
  it("lists and reads deals, reads a deposit, and withdraws it", async () => {
    const sdk = client();
    const flash = await createDeal("flash_sale");
    const group = await createDeal("group_buy");
    expect((await sdk.deals.list()).map((deal) => deal.id).sort()).toEqual([flash, group].sort());
    expect(await sdk.deals.get(group)).toMatchObject({ id: group, deal_type: "group_buy", status: "live" });
    expect(await sdk.deals.deposits(group)).toEqual({ total_deposit: 0, credited_deposit: 0 });

    const order = await sdk.transactions.createCryptoOrder({
      amount: 5,
      network_type: "solana",
      deal_id: group,
    });
    const paid = await fetch(`${install.url}/dev/orders/${order.order_id}/pay`, { method: "POST" });
    expect(paid.status).toBe(200);
    expect(await sdk.deals.deposits(group)).toEqual({ total_deposit: 5, credited_deposit: 0 });
    const wallet = "0x52908400098527886E0F7030069857D2E4169EE7";
    expect(await sdk.deals.withdraw(group, wallet)).toEqual(expect.any(String));
    expect(await sdk.deals.deposits(group)).toEqual({ total_deposit: 0, credited_deposit: 0 });

    const again = await failure(() => sdk.deals.withdraw(group, wallet));
    expect(again).toMatchObject({ status: 409, message: "You have no deposit to withdraw from this deal." });
    const unknown = await failure(() => sdk.deals.get("zzzzzzzz"));
    expect(unknown.status).toBe(404);
  });
});

describe("intelligence", () => {
  it("saves and lists hostnames, lists routing rules, and answers 404 for someone else's rule", async () => {
    const sdk = client();
    expect(await sdk.hostnames.save(["https://Example.com/", "example.com", "shop.example.org"])).toEqual([
      "example.com",
      "shop.example.org",
    ]);
    expect(await sdk.hostnames.list()).toEqual(["example.com", "shop.example.org"]);
    expect(await sdk.routingRules.list()).toEqual(expect.any(Array));
    const error = await failure(() => sdk.routingRules.setEnabled(987654, true));
    expect(error).toMatchObject({ status: 404, message: "Routing rule not found" });
  });
});

describe("bad arguments", () => {
  it("are refused with a message naming the field before anything is sent", async () => {
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests += 1;
      return fetch(input, init);
    };
    const sdk = createClient({ baseUrl: install.url, apiToken, fetch: counting });
    const cases: [() => Promise<unknown>, string][] = [
      // @ts-expect-error: a plain JavaScript caller may pass anything
      [() => sdk.usage({ group_by: "week" }), "group_by must be one of day, domain, proxy_type, subuser"],
      // @ts-expect-error: a period the dashboard does not offer
      [() => sdk.usage({ group_by: "day", days: 3 }), "days must be one of 1, 7, 14, 30, 90"],
      [
        () => sdk.transactions.createCryptoOrder({ amount: 0.5, network_type: "base" }),
        "amount must be at least 1 USD",
      ],
      [() => sdk.transactions.createCryptoOrder({ amount: 10 }), "network_type is required for crypto"],
      [() => sdk.transactions.list({ per_page: 500 }), "per_page must be between 1 and 100"],
      [() => sdk.transactions.get(""), "orderId must be a non-empty string of at most 64 characters"],
      [() => sdk.transactions.cancel(""), "orderId must be a non-empty string of at most 64 characters"],
      // @ts-expect-error: a plain JavaScript caller may pass anything
      [() => sdk.transactions.cancel(42), "orderId must be a non-empty string of at most 64 characters"],
      [() => sdk.transactions.history({ page: 0 }), "page must be at least 1"],
      [
        () => sdk.credentials({ sticky: "not_alnum" }),
        "sticky must be true, false or a session id of 1–32 letters or digits",
      ],
      [() => sdk.credentials({ country: "zz" }), "Bad country code 'zz'"],
      [
        () => sdk.credentials({ sticky: true, sessionMinutes: 0 }),
        "sessionMinutes must be a whole number from 1 to 1440",
      ],
      [() => sdk.credentials({ city: "New York" }), "Bad city 'New York': 2–40 of a–z and _"],
      [
        () => sdk.deals.withdraw("abcdefgh", "not a wallet"),
        "wallet_address: Please enter a valid wallet address (0x… or a Solana address)",
      ],
      [() => sdk.hostnames.save(["not a host"]), "Please enter valid hostnames"],
      [() => sdk.hostnames.save([]), "At least one hostname is required"],
      [() => sdk.routingRules.setEnabled(0, true), "ruleId must be a whole number of at least 1"],
    ];
    for (const [call, message] of cases) {
      const error = await failure(call);
      expect(error).toMatchObject({ status: 0, kind: "invalid_argument", message });
    }
    expect(requests).toBe(0);
    expect(() => createClient({ baseUrl: "localhost:3000", apiToken })).toThrow(
      "baseUrl must be an http:// or https:// URL",
    );
    expect(() => createClient({ baseUrl: install.url, apiToken: "" })).toThrow("apiToken is required");
  });
});

describe("retries", () => {
  it("retries a read while the server is unreachable and succeeds once it is back", async () => {
    const proxy = await startFaultProxy({ host: "127.0.0.1", port: Number(new URL(install.url).port) });
    onTestFinished(() => proxy.close());
    const sdk = createClient({ baseUrl: `http://127.0.0.1:${proxy.port}`, apiToken, retryBaseMs: 100 });
    proxy.cut();
    setTimeout(() => proxy.restore(), 250);
    expect(await sdk.balance()).toMatchObject({ balance_bytes: expect.any(Number) });
  });

  it("gives up after 3 retries with a network error, and never repeats a write", async () => {
    const proxy = await startFaultProxy({ host: "127.0.0.1", port: Number(new URL(install.url).port) });
    onTestFinished(() => proxy.close());
    proxy.cut();
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests += 1;
      return fetch(input, init);
    };
    const sdk = createClient({
      baseUrl: `http://127.0.0.1:${proxy.port}`,
      apiToken,
      retryBaseMs: 10,
      fetch: counting,
    });
    const read = await failure(() => sdk.balance());
    expect(read).toMatchObject({ status: 0, kind: "network" });
    expect(read.message).toContain(`Cannot reach http://127.0.0.1:${proxy.port}`);
    expect(requests).toBe(4);
    requests = 0;
    await failure(() => sdk.transactions.createCryptoOrder({ amount: 5, network_type: "base" }));
    expect(requests).toBe(1);
  });
});
