import type { AdminDomain, AdminNetworkResponse } from "@bytetoll/contracts";
import { loadGatewayConfig } from "@bytetoll/egress";
import { createGateway, type Gateway } from "@bytetoll/gateway";
import { freePort } from "@bytetoll/gateway/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { curlStatus } from "../../helpers/test-gateway.ts";
import {
  type ExitProxy,
  startExitProxy,
  startTestSites,
  type TestSites,
} from "../intelligence/support/test-sites.ts";

const ADMIN_TOKEN = "admin-token-0123456789abcdef";
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

let t: TestApp;
let sites: TestSites;
let mobileExit: ExitProxy;
let datacenterExit: ExitProxy;
/** A mobile exit nobody listens on: it fails every connect. */
let deadExitUrl: string;
let gateways: Gateway[];
let customerToken: string;
let proxyUser: { username: string; password: string };

const resolveHost = async (host: string) => (host.endsWith(".test") ? ["127.0.0.1"] : []);

async function startGateway(): Promise<Gateway> {
  const config = loadGatewayConfig({
    GATEWAY_BIND: "127.0.0.1",
    GATEWAY_HTTP_PORT: "0",
    GATEWAY_SOCKS_PORT: "0",
    GATEWAY_HTTPS_PORT: "0",
    GATEWAY_METRICS_PORT: "off",
    EGRESS_ALLOW: "127.0.0.1/32",
    MOBILE_UPSTREAMS: `${mobileExit.url},${deadExitUrl}`,
    DATACENTER_UPSTREAMS: datacenterExit.url,
  });
  const gateway = createGateway({
    database: t.database,
    // A minute: only the change feed can explain an override reaching the gateway in seconds.
    config: { ...config, dataDir: undefined, shutdownGraceMs: 200, cacheTtlMs: 60_000, resolveHost },
    logger: pino({ level: "silent" }),
    heartbeatMs: 200,
  });
  await gateway.listen();
  return gateway;
}

beforeAll(async () => {
  t = await createTestApp({ ADMIN_TOKEN });
  sites = await startTestSites({ "shop.test": "serves", "news.test": "serves" });
  mobileExit = await startExitProxy("127.0.0.1");
  datacenterExit = await startExitProxy("127.0.0.2");
  deadExitUrl = `http://127.0.0.1:${await freePort()}`;
  gateways = [await startGateway(), await startGateway()];
  const customer = await signIn(t.app, "network-customer@example.com");
  customerToken = customer.token;
  const credentials = await t.app.inject({
    method: "GET",
    url: "/credentials/latest",
    headers: bearer(customer.token),
  });
  proxyUser = credentials.json().data;
}, 60_000);
afterAll(async () => {
  for (const gateway of gateways ?? []) await gateway.close();
  await t?.close();
  await Promise.all([sites?.close(), mobileExit?.close(), datacenterExit?.close()]);
});

/** curl through a gateway with -routing-smart; the status it got. */
const smartGet = (gateway: Gateway, host: string): Promise<number> =>
  curlStatus(
    gateway.httpPort,
    `${proxyUser.username}-routing-smart`,
    proxyUser.password,
    `http://${host}:${sites.port}/`,
  );

async function eventually<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!done(value)) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      return value;
    },
    { timeout: 15_000, interval: 100 },
  );
}

/** Bytes the live mobile exit and the datacenter exit carried, as the network view reports them. */
const exitBytes = (data: AdminNetworkResponse["data"]): number =>
  data.upstreams
    .filter((u) => u.upstream_id === mobileExit.url || u.upstream_id === datacenterExit.url)
    .reduce((sum, u) => sum + u.bytes, 0);

const network = async (): Promise<AdminNetworkResponse["data"]> =>
  (await t.app.inject({ method: "GET", url: "/admin/network", headers: admin })).json().data;

const setOverride = (domain: string, payload: unknown, headers: Record<string, string> = admin) =>
  t.app.inject({
    method: "PUT",
    url: `/admin/intelligence/domains/${encodeURIComponent(domain)}/override`,
    headers,
    payload: payload as Record<string, unknown>,
  });

describe("the operator's network and Intelligence routes", () => {
  it.each([
    ["GET", "/admin/network", undefined],
    ["GET", "/admin/intelligence/domains", undefined],
    ["PUT", "/admin/intelligence/domains/shop.test/override", { override: "datacenter" }],
  ])("%s %s answers 401 without credentials and 403 to a customer", async (method, url, payload) => {
    const request = { method: method as "GET" | "PUT", url, ...(payload ? { payload } : {}) };
    expect((await t.app.inject(request)).statusCode).toBe(401);
    const asCustomer = await t.app.inject({ ...request, headers: bearer(customerToken) });
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json()).toMatchObject({ success: false });
  });

  it("shows every live gateway instance, and each exit's last hour with the failing one down", async () => {
    // Round robin over the two mobile exits: the dead one fails three connects in a row on each
    // instance and is skipped from then on.
    for (const gateway of gateways) {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push(await smartGet(gateway, "news.test"));
      expect(statuses.filter((status) => status === 502)).toHaveLength(3);
      expect(statuses.slice(-2)).toEqual([200, 200]);
    }
    const view = await eventually(
      "both instances' figures",
      network,
      (data) =>
        data.instances.length === 2 &&
        data.upstreams.some((u) => u.upstream_id === deadExitUrl && u.failures === 6) &&
        // Each instance reports its own figures on its own clock, and smart routing may send a
        // request through the datacenter exit: wait until both exits together carried the ten pages.
        exitBytes(data) > 10 * 7_000,
    );
    expect(view.window_minutes).toBe(60);
    for (const instance of view.instances) {
      expect(instance.live_connections).toBeGreaterThanOrEqual(0);
      expect(instance.refusals.upstream_failed).toBe(3);
      expect(instance.refusals.account_disabled).toBe(0);
    }
    const dead = view.upstreams.find((u) => u.upstream_id === deadExitUrl);
    expect(dead).toMatchObject({ pool: "mobile", status: "down", attempts: 6, failures: 6, success_rate: 0 });
    expect(dead?.down_on.sort()).toEqual(view.instances.map((i) => i.instance_id).sort());
    expect(dead?.median_connect_ms).toBeNull();
    const live = view.upstreams.find((u) => u.upstream_id === mobileExit.url);
    expect(live).toMatchObject({ pool: "mobile", status: "up", failures: 0, success_rate: 1, down_on: [] });
    expect(live?.attempts).toBeGreaterThanOrEqual(2);
    expect(live?.median_connect_ms).toBeGreaterThanOrEqual(0);
    expect(live?.bytes).toBeGreaterThan(7_000);
    expect(view.upstreams.find((u) => u.upstream_id === datacenterExit.url)).toMatchObject({
      pool: "dc",
      status: "up",
    });
  });

  it("counts an instance as gone when it stops, or when its heartbeat is over a minute old", async () => {
    await t.database.query(
      `INSERT INTO gateway_instances (instance_id, started_at, updated_at)
       VALUES ('crashed-instance', now() - interval '1 hour', now() - interval '61 seconds')`,
    );
    const third = await startGateway();
    const withThird = await eventually("the third instance", network, (data) => data.instances.length === 3);
    expect(withThird.instances.map((i) => i.instance_id)).not.toContain("crashed-instance");
    await third.close();
    const after = await network();
    expect(after.instances).toHaveLength(2);
  });

  it("an override sends a domain over datacenter (or mobile) for every customer, on every instance, with an audit row", async () => {
    const fromDatacenter = async (gateway: Gateway) => {
      const before = sites.requests.length;
      expect(await smartGet(gateway, "shop.test")).toBe(200);
      return sites.requests.slice(before).every((request) => request.fromDatacenter);
    };
    // No rule of the customer's: mobile.
    for (const gateway of gateways) expect(await fromDatacenter(gateway)).toBe(false);

    const forced = await setOverride("Shop.test", { override: "datacenter" });
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json().data).toMatchObject({ domain: "shop.test", override: "datacenter" });
    for (const gateway of gateways) {
      await eventually(
        "the override to reach the gateway",
        () => fromDatacenter(gateway),
        (dc) => dc,
      );
    }
    // A subdomain follows its parent's override; another domain does not.
    expect(await smartGet(gateways[0] as Gateway, "www.shop.test")).toBe(200);
    expect(sites.requests.at(-1)).toMatchObject({ host: "www.shop.test", fromDatacenter: true });
    expect(await smartGet(gateways[0] as Gateway, "news.test")).toBe(200);
    expect(sites.requests.at(-1)).toMatchObject({ host: "news.test", fromDatacenter: false });

    // The customer's own rule for the domain is datacenter, the operator forces premium: mobile.
    await t.database.query(
      `INSERT INTO routing_rules (user_id, rule, service, decided_by)
       SELECT user_id, 'shop.test', 'datacenter', 'user' FROM proxy_credentials WHERE username = $1`,
      [proxyUser.username],
    );
    expect((await setOverride("shop.test", { override: "premium" })).statusCode).toBe(200);
    for (const gateway of gateways) {
      await eventually(
        "premium to reach the gateway",
        () => fromDatacenter(gateway),
        (dc) => !dc,
      );
    }
    // Cleared: the customer's rule decides again.
    const cleared = await setOverride("shop.test", { override: null });
    expect(cleared.json().data).toMatchObject({ override: null, rules: 1 });
    for (const gateway of gateways) {
      await eventually(
        "the rule to decide again",
        () => fromDatacenter(gateway),
        (dc) => dc,
      );
    }

    const audit = await t.database.query<{ actor: string; action: string; before: unknown; after: unknown }>(
      "SELECT actor, action, before, after FROM admin_audit_log WHERE subject_type = 'domain' AND subject_id = 'shop.test' ORDER BY id",
    );
    expect(audit).toEqual([
      {
        actor: "admin-token",
        action: "intelligence.override",
        before: { override: null },
        after: { override: "datacenter" },
      },
      {
        actor: "admin-token",
        action: "intelligence.override",
        before: { override: "datacenter" },
        after: { override: "premium" },
      },
      {
        actor: "admin-token",
        action: "intelligence.override",
        before: { override: "premium" },
        after: { override: null },
      },
    ]);
  });

  it("lists the domains with their verdicts and overrides, searched and paginated", async () => {
    await t.database.query(
      `INSERT INTO domain_verdicts (domain, verdict, evidence) VALUES
         ('alpha.example', 'eligible', '{"source":"probe","signal":null,"observations":[]}'),
         ('beta.example', 'blocked', '{"source":"traffic","signal":"dc failures 80%","observations":[]}'),
         ('gamma.example', 'unknown', NULL)
       ON CONFLICT (domain) DO NOTHING`,
    );
    expect((await setOverride("gamma.example", { override: "premium" })).statusCode).toBe(200);
    const page = await t.app.inject({
      method: "GET",
      url: "/admin/intelligence/domains?search=EXAMPLE&per_page=2",
      headers: admin,
    });
    expect(page.statusCode, page.body).toBe(200);
    const body = page.json() as { data: AdminDomain[]; total: number; page: number; per_page: number };
    expect(body).toMatchObject({ total: 3, page: 1, per_page: 2 });
    // Overridden domains first.
    expect(body.data.map((d) => d.domain)).toEqual(["gamma.example", "alpha.example"]);
    expect(body.data[0]).toMatchObject({ override: "premium", verdict: "unknown", evidence: null });
    const blocked = await t.app.inject({
      method: "GET",
      url: "/admin/intelligence/domains?verdict=blocked&search=beta",
      headers: admin,
    });
    expect(blocked.json().data).toEqual([
      expect.objectContaining({
        domain: "beta.example",
        verdict: "blocked",
        override: null,
        evidence: { source: "traffic", signal: "dc failures 80%", observations: [] },
      }),
    ]);
  });

  it.each([
    ["GET", "/admin/intelligence/domains?per_page=0", undefined, "per_page"],
    ["GET", "/admin/intelligence/domains?verdict=maybe", undefined, "verdict must be"],
    ["GET", "/admin/intelligence/domains?color=red", undefined, ""],
    ["PUT", "/admin/intelligence/domains/shop.test/override", { override: "mobile" }, "override must be"],
    ["PUT", "/admin/intelligence/domains/shop.test/override", {}, "override must be"],
    ["PUT", "/admin/intelligence/domains/shop.test/override", { override: "premium", extra: 1 }, ""],
    [
      "PUT",
      "/admin/intelligence/domains/not%20a%20domain/override",
      { override: "premium" },
      "domain must be",
    ],
    [
      "PUT",
      "/admin/intelligence/domains/http%3A%2F%2Fshop.test/override",
      { override: "premium" },
      "domain must be",
    ],
  ])("%s %s with bad input is a 400 and changes nothing", async (method, url, payload, message) => {
    const before = await t.database.query("SELECT domain, override FROM domain_verdicts ORDER BY domain");
    const response = await t.app.inject({
      method: method as "GET" | "PUT",
      url,
      headers: admin,
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ success: false });
    expect(response.json().message).toContain(message);
    expect(await t.database.query("SELECT domain, override FROM domain_verdicts ORDER BY domain")).toEqual(
      before,
    );
  });

  it("clearing the override of a domain nobody knows is a 404", async () => {
    const response = await setOverride("unknown.example", { override: null });
    expect(response.statusCode).toBe(404);
    expect(
      await t.database.query("SELECT domain FROM domain_verdicts WHERE domain = 'unknown.example'"),
    ).toEqual([]);
  });
});
