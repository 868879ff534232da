import type { MarginsResponse, Upstream } from "@bytetoll/contracts";
import { schema } from "@bytetoll/db";
import type { Gateway } from "@bytetoll/gateway";
import { type ByteOrigin, startByteOrigin } from "@bytetoll/gateway/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { startTestGateway } from "../../helpers/test-gateway.ts";
import { startTinyproxy, type Tinyproxy, tunnelGet } from "./support/exit-proxy.ts";

const ADMIN_TOKEN = "admin-token-exits-0123456789";
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const OPERATOR = "ops-exits@example.com";
const EXIT_USER = "exituser";
const EXIT_PASSWORD = "exit-pass-7f3a";
/** The mobile price the customers are billed at (PRICE_PER_GB_USD's default), micro-dollars. */
const PRICE_MICROS = 3_000_000;

/** Both API instances and both gateways seal and open passwords with this key. */
const UPSTREAMS_KEY = "exits-test-upstreams-key-0123456789abcdef";

let t: TestApp;
/** A second API instance on the same database: budget e-mails race between the two. */
let t2: TestApp;
let tiny: Tinyproxy;
let origin: ByteOrigin;
let gateways: Gateway[];
let proxyUser: { username: string; password: string };
let exitId: string;

beforeAll(async () => {
  const env = { ADMIN_TOKEN, ADMIN_EMAILS: OPERATOR, UPSTREAMS_KEY };
  t = await createTestApp(env);
  t2 = await createTestApp(env, { database: t.database });
  tiny = await startTinyproxy(EXIT_USER, EXIT_PASSWORD);
  origin = await startByteOrigin(20_000);
  // The environment gives only a direct exit that names no country: a -country- request can only
  // go through an exit added in the console. The gateways open passwords with the same key.
  const start = () =>
    startTestGateway(t.database, {
      upstreamsKey: { secret: UPSTREAMS_KEY, dir: undefined },
      flushIntervalMs: 200,
    });
  gateways = [await start(), await start()];
  const customer = await signIn(t.app, "exits-customer@example.com");
  const credentials = await t.app.inject({
    method: "GET",
    url: "/credentials/latest",
    headers: bearer(customer.token),
  });
  proxyUser = credentials.json().data;
}, 60_000);
afterAll(async () => {
  for (const gateway of gateways ?? []) await gateway.close();
  await t2?.close();
  await t?.close();
  await Promise.all([tiny?.close(), origin?.close()]);
});

const through = (gateway: Gateway, country: string) =>
  tunnelGet(
    gateway.httpPort,
    `${proxyUser.username}-country-${country}`,
    proxyUser.password,
    origin.url("/f"),
  );

/** Requests through the gateway until one is served (or refused, `served` false); the time it took. */
async function timeUntil(gateway: Gateway, country: string, served: boolean): Promise<number> {
  const started = Date.now();
  await vi.waitFor(
    async () => {
      const { status } = await through(gateway, country);
      expect(status === 200).toBe(served);
    },
    { timeout: 10_000, interval: 50 },
  );
  return Date.now() - started;
}

/** `count` requests through each gateway in turn, each read to its end: the bytes the site's
 * sockets carried for them (counted by the site at each socket's close). */
async function carry(count: number, country: string): Promise<number> {
  const before = origin.bytesCarried();
  for (let i = 0; i < count; i++) {
    const closed = origin.nextSocketClosed();
    expect((await through(gateways[i % 2] as Gateway, country)).status).toBe(200);
    await closed;
  }
  return origin.bytesCarried() - before;
}

/** Changes go through the second API instance: what one instance writes, every gateway reads. */
const patch = async (payload: Record<string, unknown>) => {
  const response = await t2.app.inject({
    method: "PATCH",
    url: `/admin/upstreams/${exitId}`,
    headers: admin,
    payload,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Upstream;
};

const margins = async (groupBy: string): Promise<MarginsResponse["data"]> => {
  const day = new Date().toISOString().slice(0, 10);
  const response = await t.app.inject({
    method: "GET",
    url: `/admin/margins?from=${day}&to=${day}&group_by=${groupBy}`,
    headers: admin,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

const micros = (usd: number) => Math.round(usd * 1_000_000);
/** What `bytes` come to at a price per GB in micro-dollars, rounded up as the money module does. */
const priced = (bytes: number, perGbMicros: number) => Math.ceil((bytes * perGbMicros) / 1e9);

describe("exits managed in the console, through two real gateways", () => {
  it("an exit added through the API carries a -country- request on both instances within 5 s; disabled, none", async () => {
    for (const gateway of gateways) expect((await through(gateway, "de")).status).not.toBe(200);
    const created = await t.app.inject({
      method: "POST",
      url: "/admin/upstreams",
      headers: admin,
      payload: {
        name: "tinyproxy-de",
        pool: "mobile",
        url: `http://${EXIT_USER}:${EXIT_PASSWORD}@127.0.0.1:${tiny.port}`,
        countries: ["de"],
        cost_per_gb_usd: 2,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const exit = created.json().data as Upstream;
    exitId = exit.id;
    expect(exit).toMatchObject({
      url: `http://${EXIT_USER}:****@127.0.0.1:${tiny.port}`,
      countries: ["DE"],
      source: "console",
      weight: 1,
    });
    expect(created.body).not.toContain(EXIT_PASSWORD);
    const waits = await Promise.all(gateways.map((gateway) => timeUntil(gateway, "de", true)));
    for (const ms of waits) expect(ms).toBeLessThan(5_000);
    // tinyproxy itself relayed them (it logs each CONNECT it served).
    expect(tiny.log()).toContain("CONNECT");

    const list = await t.app.inject({ method: "GET", url: "/admin/upstreams", headers: admin });
    expect(list.body).not.toContain(EXIT_PASSWORD);
    const exits = list.json().data as Upstream[];
    expect(exits.find((e) => e.source === "environment")).toMatchObject({ url: "direct", pool: "mobile" });

    await patch({ enabled: false });
    const refusals = await Promise.all(gateways.map((gateway) => timeUntil(gateway, "de", false)));
    for (const ms of refusals) expect(ms).toBeLessThan(5_000);
    for (const gateway of gateways) expect((await through(gateway, "de")).status).not.toBe(200);
    await patch({ enabled: true });
    await Promise.all(gateways.map((gateway) => timeUntil(gateway, "de", true)));
  }, 60_000);

  it("margins match the bytes counted through the exit at the cost in force then (a price change rewrites no history)", async () => {
    // Only requests through the exit reach the site: what it counted so far is what the first
    // test carried at $2, booked once the instances flushed it.
    const exitBytes = async () => (await margins("upstream")).rows.find((r) => r.key === exitId)?.bytes;
    await vi.waitFor(async () => expect(await exitBytes()).toBe(origin.bytesCarried()), {
      timeout: 10_000,
      interval: 100,
    });
    const baseline = origin.bytesCarried();
    const four = await carry(4, "de");
    const atTwo = baseline + four;
    await vi.waitFor(
      async () => expect((await margins("upstream")).rows.find((r) => r.key === exitId)?.bytes).toBe(atTwo),
      {
        timeout: 10_000,
        interval: 100,
      },
    );

    // The new cost comes with a new country: a request for it served on an instance proves the
    // instance read the changed exit, so everything after is at the new cost.
    const before = origin.bytesCarried();
    await patch({ cost_per_gb_usd: 0.5, countries: ["de", "at"] });
    await Promise.all(gateways.map((gateway) => timeUntil(gateway, "at", true)));
    // One request served on each instance, every request the same size: counted once the site
    // closed their sockets.
    await vi.waitFor(() => expect(origin.bytesCarried() - before).toBe((2 * four) / 4));
    const atHalf = origin.bytesCarried() - before + (await carry(3, "at"));

    const expected = {
      bytes: atTwo + atHalf,
      cost: priced(atTwo, 2_000_000) + priced(atHalf, 500_000),
      billed: priced(atTwo, PRICE_MICROS) + priced(atHalf, PRICE_MICROS),
    };
    await vi.waitFor(
      async () =>
        expect((await margins("upstream")).rows.find((r) => r.key === exitId)?.bytes).toBe(expected.bytes),
      {
        timeout: 10_000,
        interval: 100,
      },
    );
    const row = (await margins("upstream")).rows.find((r) => r.key === exitId);
    expect(row).toMatchObject({ label: "tinyproxy-de", bytes: expected.bytes, billed_bytes: expected.bytes });
    expect(micros(row?.cost_usd ?? -1)).toBe(expected.cost);
    expect(micros(row?.billed_usd ?? -1)).toBe(expected.billed);
    expect(micros(row?.margin_usd ?? -1)).toBe(expected.billed - expected.cost);
    // Every grouping adds up to the same total, to the micro-dollar.
    for (const group of ["day", "upstream", "pool", "customer"]) {
      const report = await margins(group);
      const sum = (pick: (r: (typeof report.rows)[number]) => number) =>
        report.rows.reduce((s, r) => s + pick(r), 0);
      expect(sum((r) => r.bytes)).toBe(report.total.bytes);
      expect(sum((r) => micros(r.cost_usd))).toBe(micros(report.total.cost_usd));
      expect(sum((r) => micros(r.billed_usd))).toBe(micros(report.total.billed_usd));
      expect(micros(report.total.margin_usd)).toBe(
        micros(report.total.billed_usd) - micros(report.total.cost_usd),
      );
      expect(report.total.bytes).toBe(expected.bytes);
    }
    // A customer's row is labelled with their e-mail.
    expect((await margins("customer")).rows.map((r) => r.label)).toEqual(["exits-customer@example.com"]);
  }, 60_000);

  it("a reached monthly budget stops new connections on both instances and mails the operators once (two API instances)", async () => {
    const carried = (await margins("upstream")).rows.find((r) => r.key === exitId)?.bytes as number;
    // A budget one request away.
    const exit = await patch({ monthly_budget_gb: (carried + 1_000) / 1e9 });
    expect(exit.state).toBe("up");
    await Promise.all(gateways.map((gateway) => timeUntil(gateway, "de", true)));
    const refusals = await Promise.all(gateways.map((gateway) => timeUntil(gateway, "de", false)));
    for (const ms of refusals) expect(ms).toBeLessThan(10_000);
    const list = (await t.app.inject({ method: "GET", url: "/admin/upstreams", headers: admin })).json()
      .data as Upstream[];
    expect(list.find((e) => e.id === exitId)?.state).toBe("budget_reached");
    const mails = () =>
      t.database.db.select().from(schema.outboxMessages).where(eq(schema.outboxMessages.to, OPERATOR));
    await vi.waitFor(async () =>
      expect((await mails()).filter((m) => m.subject.includes("monthly budget"))).toHaveLength(1),
    );
    // Another change of the exit is checked again: still one e-mail this month.
    await patch({ weight: 3 });
    await vi.waitFor(async () => expect((await margins("upstream")).total.bytes).toBeGreaterThan(0));
    expect((await mails()).filter((m) => m.subject.includes("monthly budget"))).toHaveLength(1);
  }, 60_000);
});
