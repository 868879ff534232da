import { type Database, openDatabase } from "@bytetoll/db";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { type GatewayConfig, loadGatewayConfig } from "@bytetoll/egress";
import { type Gateway, Prober } from "@bytetoll/gateway";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { curlStatus, startTestGateway } from "../../helpers/test-gateway.ts";
import { type ExitProxy, startExitProxy, startTestSites, type TestSites } from "./support/test-sites.ts";

let sites: TestSites;
let datacenterExit: ExitProxy;
let mobileExit: ExitProxy;
let database: TestDatabase;
let network: GatewayConfig;
let t: TestApp;
let gateway: Gateway;

/** Every *.test name is the loopback origin, for the gateway and the learner's probes alike. */
const resolveHost = async (host: string) =>
  host === "internal.test" ? ["10.0.0.5"] : host.endsWith(".test") ? ["127.0.0.1"] : [];

function learnerOn(app: TestApp["app"]) {
  app.intelligence.learner.configure({
    prober: new Prober(network),
    settings: { tickMs: 200, ports: { http: sites.port, https: sites.port } },
  });
}

beforeAll(async () => {
  sites = await startTestSites({
    "served.test": "serves",
    "guarded.test": "blocks-datacenter",
    "turncoat.test": "serves",
  });
  datacenterExit = await startExitProxy("127.0.0.2");
  mobileExit = await startExitProxy("127.0.0.1");
  database = await createTestDatabase();
  network = {
    ...loadGatewayConfig({
      EGRESS_ALLOW: "127.0.0.1/32",
      MOBILE_UPSTREAMS: mobileExit.url,
      DATACENTER_UPSTREAMS: datacenterExit.url,
    }),
    resolveHost,
  };
  t = await createTestApp({}, { database, beforeReady: learnerOn });
  gateway = await startTestGateway(database, {
    // A minute: only the change feed can explain a rule change reaching the gateway in seconds.
    cacheTtlMs: 60_000,
    mobileUpstreams: network.mobileUpstreams,
    datacenterUpstreams: network.datacenterUpstreams,
    resolveHost,
  });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await t?.close();
  await database?.close();
  await Promise.all([sites?.close(), datacenterExit?.close(), mobileExit?.close()]);
});

type Rule = {
  id: number;
  rule: string;
  service: string;
  verdict: string;
  decided_by: string;
  evidence: { signal: string } | null;
};

async function rulesOf(token: string): Promise<Rule[]> {
  const response = await t.app.inject({
    method: "GET",
    url: "/settings/routing/rules",
    headers: bearer(token),
  });
  return response.json().data;
}

async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 60_000,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!done(value)) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      return value;
    },
    { timeout: ms, interval: 100 },
  );
}

async function customer(email: string) {
  const user = await signIn(t.app, email);
  const credentials = await t.app.inject({
    method: "GET",
    url: "/credentials/latest",
    headers: bearer(user.token),
  });
  const { username, password } = credentials.json().data as { username: string; password: string };
  const get = (url: string, smart = true) =>
    curlStatus(gateway.httpPort, smart ? `${username}-routing-smart` : username, password, url);
  return { ...user, get };
}

const saveHints = (token: string, hostnames: string[]) =>
  t.app.inject({
    method: "POST",
    url: "/settings/hostnames",
    headers: bearer(token),
    payload: { hostnames },
  });

describe("the Intelligence learner", () => {
  it("makes the right rules on its own within a minute of the hints being saved", async () => {
    const user = await signIn(t.app, "learner-hints@example.com");
    const savedAt = Date.now();
    expect((await saveHints(user.token, ["served.test", "guarded.test"])).statusCode).toBe(200);
    const rules = await waitFor(
      "two rules",
      () => rulesOf(user.token),
      (list) => list.length === 2,
    );
    expect(Date.now() - savedAt).toBeLessThan(60_000);
    const [guarded, served] = rules;
    expect(served).toMatchObject({
      rule: "served.test",
      service: "datacenter",
      verdict: "eligible",
      decided_by: "learner",
    });
    expect(guarded).toMatchObject({ rule: "guarded.test", service: "premium", verdict: "blocked" });
    expect(guarded?.evidence?.signal).toMatch(/captcha/i);
    // Each site saw one probe per pool (the https fetch fails its handshake on both, so it decides nothing).
    const probes = sites.requests.filter((r) => r.host === "guarded.test");
    expect(probes.map((r) => r.fromDatacenter).sort()).toEqual([false, true]);
    // Probes pass no meter: nobody is billed for them.
    const [billed] = await database.query<{ rows: string }>("SELECT count(*) AS rows FROM usage_rollups");
    expect(Number(billed?.rows)).toBe(0);
  });

  it("never probes an address the egress guard forbids", async () => {
    const user = await signIn(t.app, "learner-internal@example.com");
    await saveHints(user.token, ["internal.test"]);
    const [verdict] = await waitFor(
      "a probe",
      () =>
        database.query<{ verdict: string; evidence: { observations: { error: string | null }[] } | null }>(
          "SELECT verdict, evidence FROM domain_verdicts WHERE domain = 'internal.test'",
        ),
      (rows) => rows[0]?.evidence != null,
      10_000,
    );
    expect(verdict?.verdict).toBe("unknown");
    expect(verdict?.evidence?.observations.map((o) => o.error?.split(":")[0])).toEqual([
      "forbidden",
      "forbidden",
      "forbidden",
      "forbidden",
    ]);
    expect(
      [...datacenterExit.tunnels, ...mobileExit.tunnels].some((tunnel) => tunnel.startsWith("10.0.0.5")),
    ).toBe(false);
    expect(
      [...datacenterExit.requests, ...mobileExit.requests].some((request) =>
        request.includes("internal.test"),
      ),
    ).toBe(false);
    expect(await rulesOf(user.token)).toEqual([]);
  });

  it("routes smart traffic to the served site over datacenter, billed as dc at a tenth; the blocked site stays on mobile", async () => {
    const user = await customer("learner-traffic@example.com");
    expect((await saveHints(user.token, ["served.test", "guarded.test"])).statusCode).toBe(200);
    await waitFor(
      "rules",
      () => rulesOf(user.token),
      (list) => list.length === 2,
      10_000,
    );
    const seen = sites.requests.length;
    expect(await user.get(`http://served.test:${sites.port}/`)).toBe(200);
    expect(await user.get(`http://guarded.test:${sites.port}/`)).toBe(200);
    expect(await user.get(`http://served.test:${sites.port}/`, false)).toBe(200);
    expect(sites.requests.slice(seen).map((r) => [r.host, r.fromDatacenter])).toEqual([
      ["served.test", true],
      ["guarded.test", false],
      ["served.test", false],
    ]);
    await gateway.flush();
    const usage = await database.query<{ domain: string; proxy_type: string; bytes: string }>(
      "SELECT domain, proxy_type, bytes FROM usage_rollups WHERE user_id = $1 ORDER BY domain, proxy_type",
      [user.id],
    );
    expect(usage.map((u) => [u.domain, u.proxy_type])).toEqual([
      ["guarded.test", "mobile"],
      ["served.test", "dc"],
      ["served.test", "mobile"],
    ]);
    const bytes = (domain: string, type: string) =>
      Number(usage.find((u) => u.domain === domain && u.proxy_type === type)?.bytes);
    const [balance] = await database.query<{ balance_bytes: string }>(
      "SELECT balance_bytes FROM users WHERE id = $1",
      [user.id],
    );
    const debited = 1e9 - Number(balance?.balance_bytes);
    const expected =
      bytes("guarded.test", "mobile") + bytes("served.test", "mobile") + bytes("served.test", "dc") / 10;
    // Each flush rounds its dc debit up to a whole byte; a request may span a few flushes.
    expect(Math.abs(debited - expected)).toBeLessThan(4);
    const status = await t.app.inject({
      method: "GET",
      url: "/proxies/usage?group_by=proxy_type&days=1",
      headers: bearer(user.token),
    });
    expect(status.json().data[0]).toMatchObject({ dc_requests: 1, mobile_requests: 2 });
  });

  it("a rule switched off on the dashboard reaches the gateway within a second", async () => {
    const user = await customer("learner-switch@example.com");
    await saveHints(user.token, ["served.test"]);
    const [rule] = await waitFor(
      "a rule",
      () => rulesOf(user.token),
      (list) => list.length === 1,
      10_000,
    );
    const viaDatacenter = async () => {
      expect(await user.get(`http://served.test:${sites.port}/`)).toBe(200);
      return sites.requests[sites.requests.length - 1]?.fromDatacenter;
    };
    expect(await viaDatacenter()).toBe(true);
    const switched = await t.app.inject({
      method: "PATCH",
      url: `/settings/routing/rules/${rule?.id}`,
      headers: bearer(user.token),
      payload: { enabled: false },
    });
    expect(switched.statusCode).toBe(200);
    const startedAt = Date.now();
    await waitFor("mobile", viaDatacenter, (dc) => dc === false, 1_000);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it("never overrides the user's toggle, only suggests", async () => {
    const user = await signIn(t.app, "learner-toggle@example.com");
    await saveHints(user.token, ["served.test"]);
    const [served] = await waitFor(
      "a rule",
      () => rulesOf(user.token),
      (list) => list.length === 1,
      10_000,
    );
    await t.app.inject({
      method: "PATCH",
      url: `/settings/routing/rules/${served?.id}`,
      headers: bearer(user.token),
      payload: { enabled: false },
    });
    // Due again now: the learner probes it at its next tick and finds it eligible once more.
    await database.query(
      "UPDATE domain_verdicts SET next_probe_at = now(), last_probe_at = now() - interval '2 minutes' WHERE domain = 'served.test'",
    );
    await waitFor(
      "a new probe",
      async () =>
        (
          await database.query<{ due: boolean }>(
            "SELECT next_probe_at > now() + interval '1 hour' AS due FROM domain_verdicts WHERE domain = 'served.test'",
          )
        )[0]?.due,
      Boolean,
      10_000,
    );
    expect((await rulesOf(user.token))[0]).toMatchObject({
      service: "premium",
      decided_by: "user",
      verdict: "eligible",
    });
  });

  it("a site that starts refusing datacenter traffic of several customers is probed again and loses its rule", async () => {
    const users = await Promise.all(
      ["learner-turncoat@example.com", "learner-turncoat2@example.com", "learner-turncoat3@example.com"].map(
        customer,
      ),
    );
    for (const other of users) {
      await saveHints(other.token, ["turncoat.test"]);
      await waitFor(
        "an eligible rule",
        () => rulesOf(other.token),
        (list) => list[0]?.service === "datacenter",
        10_000,
      );
    }
    const user = users[0] as (typeof users)[number];
    sites.behaviour.set("turncoat.test", "resets-datacenter");
    for (const other of users)
      for (let i = 0; i < 2; i++) expect(await other.get(`http://turncoat.test:${sites.port}/`)).toBe(502);
    // Time has "passed" since the hints' probe: the learner may probe the site again.
    await database.query(
      "UPDATE domain_verdicts SET last_probe_at = now() - interval '11 minutes' WHERE domain = 'turncoat.test'",
    );
    const [rule] = await waitFor(
      "the rule to drop",
      () => rulesOf(user.token),
      (list) => list[0]?.service === "premium",
      30_000,
    );
    expect(rule).toMatchObject({ verdict: "blocked", decided_by: "learner" });
    // The learner's own probe decided, and that is all the customer sees.
    expect(rule?.evidence?.signal).toMatch(/datacenter only/);
    await waitFor(
      "mobile again",
      () => user.get(`http://turncoat.test:${sites.port}/`),
      (status) => status === 200,
      2_000,
    );
  });
});

describe("two server instances", () => {
  let second: TestApp;
  let secondDatabase: Database | null = null;

  beforeAll(async () => {
    // On PostgreSQL the second instance has connections of its own, as a second process would.
    secondDatabase = database.url ? await openDatabase({ databaseUrl: database.url, migrate: false }) : null;
    second = await createTestApp(
      {},
      { database: (secondDatabase ?? database) as TestDatabase, beforeReady: learnerOn },
    );
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await secondDatabase?.close();
  });

  it("never probe the same domain at once: each domain is fetched once per pool", async () => {
    const user = await signIn(t.app, "learner-pair@example.com");
    const domains = Array.from({ length: 8 }, (_, i) => `shop${i}.test`);
    const seen = sites.requests.length;
    await saveHints(user.token, domains);
    await waitFor(
      "eight rules",
      () => rulesOf(user.token),
      (list) => list.length === 8,
      60_000,
    );
    const probes = sites.requests.slice(seen);
    for (const domain of domains) {
      const fetches = probes.filter((r) => r.host === domain);
      expect(fetches.map((r) => r.fromDatacenter).sort()).toEqual([false, true]);
    }
    const [leases] = await database.query<{ held: string }>(
      "SELECT count(*) AS held FROM domain_verdicts WHERE probing_by IS NOT NULL",
    );
    expect(Number(leases?.held)).toBe(0);
  });
});
