import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { type GatewayConfig, loadGatewayConfig } from "@bytetoll/egress";
import { type Gateway, Prober } from "@bytetoll/gateway";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { curlAnswer, startTestGateway } from "../../helpers/test-gateway.ts";
import { type ExitProxy, startExitProxy, startTestSites, type TestSites } from "./support/test-sites.ts";

/** A loopback address of the tests' own: its port 443 is free whatever else runs here. */
const ORIGIN = "127.0.0.79";

let sites: TestSites;
let tlsPort: net.Server;
const tlsSockets = new Set<net.Socket>();
let datacenterExit: ExitProxy;
let mobileExit: ExitProxy;
let database: TestDatabase;
let network: GatewayConfig;
let t: TestApp;
let gateway: Gateway;

const resolveHost = async (host: string) => (host.endsWith(".test") ? [ORIGIN] : []);

beforeAll(async () => {
  sites = await startTestSites({}, ORIGIN);
  // Port 443 of every site: it waits for a whole TLS hello (more than a byte), answers a few bytes
  // and hangs up — a handshake the site cuts short; it hangs up when the client does.
  tlsPort = net.createServer((socket) => {
    tlsSockets.add(socket);
    socket.on("error", () => {});
    socket.once("data", (data) => {
      if (data.length > 1) socket.end(Buffer.alloc(7));
    });
    socket.once("close", () => tlsSockets.delete(socket));
  });
  await new Promise<void>((resolve) => tlsPort.listen(443, ORIGIN, resolve));
  datacenterExit = await startExitProxy("127.0.0.2", ORIGIN);
  mobileExit = await startExitProxy("127.0.0.1", ORIGIN);
  database = await createTestDatabase();
  network = {
    ...loadGatewayConfig({
      EGRESS_ALLOW: `127.0.0.1/32,${ORIGIN}/32`,
      MOBILE_UPSTREAMS: mobileExit.url,
      DATACENTER_UPSTREAMS: datacenterExit.url,
    }),
    resolveHost,
  };
  t = await createTestApp(
    {},
    {
      database,
      beforeReady: (app) =>
        app.intelligence.learner.configure({
          prober: new Prober(network),
          settings: { tickMs: 200, ports: { http: sites.port, https: sites.port }, trafficReprobeQuietMs: 0 },
        }),
    },
  );
  gateway = await startTestGateway(database, {
    mobileUpstreams: network.mobileUpstreams,
    datacenterUpstreams: network.datacenterUpstreams,
    egressAllow: network.egressAllow,
    resolveHost,
  });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await t?.close();
  await database?.close();
  for (const socket of tlsSockets) socket.destroy();
  await new Promise((resolve) => (tlsPort ? tlsPort.close(resolve) : resolve(null)));
  await Promise.all([sites?.close(), datacenterExit?.close(), mobileExit?.close()]);
});

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000) {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!done(value)) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      return value;
    },
    { timeout: ms, interval: 100 },
  );
}

type Rule = { rule: string; service: string; verdict: string; evidence: unknown; dc_gb_30d: number };

async function customer(email: string) {
  const user = await signIn(t.app, email);
  const credentials = await t.app.inject({
    method: "GET",
    url: "/credentials/latest",
    headers: bearer(user.token),
  });
  const { username, password } = credentials.json().data as { username: string; password: string };
  const smart = `${username}-routing-smart`;
  const rules = async (): Promise<Rule[]> =>
    (
      await t.app.inject({ method: "GET", url: "/settings/routing/rules", headers: bearer(user.token) })
    ).json().data;
  return {
    ...user,
    rules,
    hint: (hostnames: string[]) =>
      t.app.inject({
        method: "POST",
        url: "/settings/hostnames",
        headers: bearer(user.token),
        payload: { hostnames },
      }),
    /** Waits until the learner made this customer's datacenter rule for `domain`. */
    ruleOn: (domain: string) =>
      waitFor(`a datacenter rule for ${domain}`, rules, (list) =>
        list.some((r) => r.rule === domain && r.service === "datacenter"),
      ),
    /** The site's answer through the gateway: its status, or the status and the gateway's refusal
     * code when the gateway refused (a test expecting the site's 403 must not pass on the gateway's). */
    get: async (url: string) => {
      const { status, refusal } = await curlAnswer(gateway.httpPort, smart, password, url);
      return refusal ? `${status} ${refusal}` : status;
    },
    /** A CONNECT tunnel to domain:443 that the client closes (FIN, or with `reset` RST) after
     * sending one byte, without waiting for the site; with `hello`, it sends a whole hello and
     * waits for the site to hang up. */
    selfClosedTunnel: (domain: string, reset: boolean, hello = false) =>
      new Promise<void>((resolve, reject) => {
        const socket = net.connect(gateway.httpPort, "127.0.0.1");
        const auth = Buffer.from(`${smart}:${password}`).toString("base64");
        socket.on("error", () => {});
        socket.once("close", () => resolve());
        socket.write(
          `CONNECT ${domain}:443 HTTP/1.1\r\nHost: ${domain}:443\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
        );
        socket.once("data", (reply) => {
          if (!reply.toString().startsWith("HTTP/1.1 200")) reject(new Error(reply.toString()));
          if (hello) {
            socket.write(Buffer.alloc(300, 0x16));
            return;
          }
          socket.write(Buffer.from([0x16]));
          setTimeout(() => (reset ? socket.resetAndDestroy() : socket.destroy()), 20);
        });
      }),
  };
}

const verdictOf = async (domain: string) =>
  (
    await database.query<{ verdict: string; probing_by: string | null }>(
      "SELECT verdict, probing_by FROM domain_verdicts WHERE domain = $1",
      [domain],
    )
  )[0];

/** The gateway's attributed outcomes for `domain`, once `connections` of them are in. */
const outcomesOf = (domain: string, connections: number) =>
  waitFor(
    `${connections} outcomes for ${domain}`,
    () =>
      database.query<{ account: string; connections: string; tls_cut: string; failures: string }>(
        `SELECT account, sum(connections) AS connections, sum(tls_cut) AS tls_cut,
           sum(dial_failures + resets + tls_cut + blocked_statuses) AS failures
         FROM domain_outcomes WHERE domain = $1 AND proxy_type = 'dc' GROUP BY account ORDER BY account`,
        [domain],
      ),
    (rows) => rows.reduce((sum, row) => sum + Number(row.connections), 0) >= connections,
  );

/** Lets the learner judge the traffic: the domain may be probed again (a minute has "passed"),
 * and two whole ticks run after the outcomes are in. */
async function learnerLooks(domain: string) {
  await database.query(
    "UPDATE domain_verdicts SET last_probe_at = now() - interval '2 minutes' WHERE domain = $1",
    [domain],
  );
  await t.app.intelligence.learner.tick();
  await t.app.intelligence.learner.tick();
}

const datacenterFetches = (domain: string) =>
  sites.requests.filter((r) => r.host === domain && r.path === "/" && r.fromDatacenter).length;

describe("one customer cannot change what others pay", () => {
  // First: the rest of the datacenter pool is still clean, so the site's failures stand out.
  it("failures from three accounts and a confirming probe block the site; each sees only their own figures", async () => {
    const three = await Promise.all(["c1@example.com", "c2@example.com", "c3@example.com"].map(customer));
    const bystander = await customer("bystander@example.com");
    for (const c of [...three, bystander]) {
      await c.hint(["turned.test"]);
      await c.ruleOn("turned.test");
    }
    // The three send datacenter traffic first: volumes the bystander must never see.
    for (const c of three) expect(await c.get(`http://turned.test:${sites.port}/`)).toBe(200);
    sites.behaviour.set("turned.test", "blocks-datacenter");
    for (const c of three)
      for (let i = 0; i < 2; i++) expect(await c.get(`http://turned.test:${sites.port}/`)).toBe(403);
    await outcomesOf("turned.test", 9);
    await learnerLooks("turned.test");
    const [rule] = await waitFor(
      "the rule to drop",
      async () => (await bystander.rules()).filter((r) => r.rule === "turned.test"),
      (list) => list[0]?.service === "premium",
    );
    expect(rule).toMatchObject({ verdict: "blocked", dc_gb_30d: 0 });
    const evidence = rule?.evidence as { source: string; observations: { pool: string }[] };
    expect(evidence.source).toBe("probe");
    expect(JSON.stringify(rule)).not.toMatch(/connections failed|accounts/);
    await gateway.flush();
    const [theirs] = await database.query<{ bytes: string }>(
      "SELECT sum(bytes) AS bytes FROM usage_rollups WHERE domain = 'turned.test' AND proxy_type = 'dc'",
    );
    expect(Number(theirs?.bytes)).toBeGreaterThan(0);
  }, 90_000);

  it("self-closed tunnels and 403 pages from one account leave the shared verdict alone", async () => {
    const victim = await customer("victim@example.com");
    const attacker = await customer("attacker@example.com");
    await victim.hint(["victim.test"]);
    await victim.ruleOn("victim.test");
    await attacker.hint(["victim.test"]);
    await attacker.ruleOn("victim.test");
    const probesBefore = datacenterFetches("victim.test");
    for (let i = 0; i < 12; i++) await attacker.selfClosedTunnel("victim.test", i % 2 === 1);
    for (let i = 0; i < 6; i++)
      expect(await attacker.get(`http://victim.test:${sites.port}/forbidden`)).toBe(403);
    const rows = await outcomesOf("victim.test", 18);
    // Attributed to the attacker, and the tunnels she closed herself are not the site's failures.
    expect(
      rows.map((r) => [r.account, Number(r.connections), Number(r.tls_cut), Number(r.failures)]),
    ).toEqual([[attacker.id, 18, 0, 6]]);
    await learnerLooks("victim.test");
    expect((await verdictOf("victim.test"))?.verdict).toBe("eligible");
    expect(datacenterFetches("victim.test")).toBe(probesBefore);
    expect((await victim.rules()).find((r) => r.rule === "victim.test")?.service).toBe("datacenter");
  }, 90_000);

  it("a handshake the site itself cuts short still counts against the site", async () => {
    const user = await customer("honest@example.com");
    await user.hint(["cutting.test"]);
    await user.ruleOn("cutting.test");
    await user.selfClosedTunnel("cutting.test", false, true);
    const rows = await outcomesOf("cutting.test", 1);
    expect(rows.map((r) => [r.account, Number(r.tls_cut)])).toEqual([[user.id, 1]]);
  }, 90_000);

  it("failures of several accounts, one of them with most, change nothing", async () => {
    const [heavy, light1, light2] = await Promise.all(
      ["heavy@example.com", "light1@example.com", "light2@example.com"].map(customer),
    );
    for (const c of [heavy, light1, light2]) {
      await c?.hint(["dominated.test"]);
      await c?.ruleOn("dominated.test");
    }
    const probesBefore = datacenterFetches("dominated.test");
    for (let i = 0; i < 6; i++) await heavy?.get(`http://dominated.test:${sites.port}/forbidden`);
    await light1?.get(`http://dominated.test:${sites.port}/forbidden`);
    await light2?.get(`http://dominated.test:${sites.port}/forbidden`);
    expect((await outcomesOf("dominated.test", 8)).map((r) => Number(r.failures)).sort()).toEqual([1, 1, 6]);
    await learnerLooks("dominated.test");
    expect((await verdictOf("dominated.test"))?.verdict).toBe("eligible");
    expect(datacenterFetches("dominated.test")).toBe(probesBefore);
  }, 90_000);

  it("failures spread over three accounts only buy a probe: the site still serves, the verdict stays", async () => {
    const three = await Promise.all(["s1@example.com", "s2@example.com", "s3@example.com"].map(customer));
    for (const c of three) {
      await c.hint(["spread.test"]);
      await c.ruleOn("spread.test");
    }
    const probesBefore = datacenterFetches("spread.test");
    for (const c of three)
      for (let i = 0; i < 2; i++) await c.get(`http://spread.test:${sites.port}/forbidden`);
    await outcomesOf("spread.test", 6);
    await learnerLooks("spread.test");
    await waitFor(
      "a probe",
      async () => datacenterFetches("spread.test"),
      (n) => n > probesBefore,
    );
    await waitFor(
      "the probe's verdict",
      () => verdictOf("spread.test"),
      (v) => v?.probing_by === null,
    );
    expect((await verdictOf("spread.test"))?.verdict).toBe("eligible");
  }, 90_000);

  it("a verdict from the gateway's figures is shown to a customer without them", async () => {
    const reader = await customer("reader@example.com");
    await reader.hint(["legacy.test"]);
    await reader.ruleOn("legacy.test");
    await database.query(
      `UPDATE domain_verdicts SET verdict = 'blocked', evidence = $1::jsonb WHERE domain = 'legacy.test'`,
      [
        JSON.stringify({
          source: "traffic",
          signal:
            "gateway: 18 of 18 datacenter connections failed in 10 min (mobile 0 of 0, other datacenter traffic 0 of 0)",
          observations: [],
        }),
      ],
    );
    const [rule] = (await reader.rules()).filter((r) => r.rule === "legacy.test");
    expect(JSON.stringify(rule?.evidence)).not.toMatch(/\d+ of \d+/);
  }, 90_000);
});
