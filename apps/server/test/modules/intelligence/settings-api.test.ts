import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { insertRollups } from "../usage/rollup-fixtures.ts";

const ADMIN_TOKEN = "admin-token-0123456789abcdef";
let t: TestApp;
let owner: { token: string; id: string };
let stranger: { token: string; id: string };

beforeAll(async () => {
  // Nothing here is probed: these tests judge the API, the learner has its own.
  t = await createTestApp(
    { ADMIN_TOKEN },
    { beforeReady: (app) => app.intelligence.learner.configure({ prober: null }) },
  );
  owner = await signIn(t.app, "hints-owner@example.com");
  stranger = await signIn(t.app, "hints-stranger@example.com");
}, 60_000);
afterAll(async () => t?.close());

const saveHints = (token: string, hostnames: unknown) =>
  t.app.inject({
    method: "POST",
    url: "/settings/hostnames",
    headers: bearer(token),
    payload: { hostnames },
  });
const hints = async (token: string) => {
  const response = await t.app.inject({ method: "GET", url: "/settings/hostnames", headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return response.json().data.hostnames.map((h: { hostname: string }) => h.hostname);
};
const rules = async (token: string) => {
  const response = await t.app.inject({
    method: "GET",
    url: "/settings/routing/rules",
    headers: bearer(token),
  });
  expect(response.statusCode).toBe(200);
  expect(response.json().success).toBe(true);
  return response.json().data as Array<Record<string, unknown>>;
};
const toggle = (token: string, id: unknown, payload: unknown) =>
  t.app.inject({
    method: "PATCH",
    url: `/settings/routing/rules/${id}`,
    headers: bearer(token),
    payload: payload as object,
  });

describe("hostname hints", () => {
  it("stores bare lower-case host names, de-duplicated, in the order written", async () => {
    expect(await hints(owner.token)).toEqual([]);
    const saved = await saveHints(owner.token, [
      " https://Shop.Example.com/ ",
      "",
      "http://news.example.org",
      "shop.example.com",
      "api.example.io/",
    ]);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      success: true,
      data: {
        hostnames: [
          { hostname: "shop.example.com" },
          { hostname: "news.example.org" },
          { hostname: "api.example.io" },
        ],
      },
    });
    expect(await hints(owner.token)).toEqual(["shop.example.com", "news.example.org", "api.example.io"]);
    // Saving replaces the list.
    expect((await saveHints(owner.token, ["news.example.org"])).statusCode).toBe(200);
    expect(await hints(owner.token)).toEqual(["news.example.org"]);
  });

  it.each([
    ["no line at all", [], "At least one hostname is required"],
    ["only blank lines", ["", "   "], "At least one hostname is required"],
    ["a sentence", ["not a host name"], "Please enter valid hostnames"],
    ["a top-level part with a digit", ["example.c0m"], "Please enter valid hostnames"],
    ["another scheme", ["ftp://example.com"], "Please enter valid hostnames"],
    ["a path", ["example.com/login"], "Please enter valid hostnames"],
    ["a bare word", ["localhost"], "Please enter valid hostnames"],
    [
      "10,000 lines",
      Array.from({ length: 10_000 }, (_, i) => `site${i}.example.com`),
      "At most 500 hostnames are allowed",
    ],
    [
      "501 distinct names",
      Array.from({ length: 501 }, (_, i) => `site${i}.example.com`),
      "At most 500 hostnames are allowed",
    ],
    ["a number", [42], "hostnames.0: Please enter valid hostnames"],
  ])("refuses %s with a 400 and keeps the saved list", async (_what, hostnames, message) => {
    const response = await saveHints(owner.token, hostnames);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message });
    expect(await hints(owner.token)).toEqual(["news.example.org"]);
  });

  it("refuses a body without a list, and strangers without a token", async () => {
    const noList = await t.app.inject({
      method: "POST",
      url: "/settings/hostnames",
      headers: bearer(owner.token),
      payload: { hostnames: "example.com" },
    });
    expect(noList.statusCode).toBe(400);
    expect(noList.json().success).toBe(false);
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/settings/hostnames",
      payload: { hostnames: ["a.com"] },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it("a new hint makes a domain the learner could not decide yet due at once", async () => {
    await t.database.query(
      "INSERT INTO domain_verdicts (domain, verdict, next_probe_at) VALUES ('flaky.example.com', 'unknown', now() + interval '6 hours')",
    );
    expect((await saveHints(owner.token, ["news.example.org", "flaky.example.com"])).statusCode).toBe(200);
    const [row] = await t.database.query<{ due: boolean }>(
      "SELECT next_probe_at <= now() AS due FROM domain_verdicts WHERE domain = 'flaky.example.com'",
    );
    expect(row?.due).toBe(true);
    expect((await saveHints(owner.token, ["news.example.org"])).statusCode).toBe(200);
  });

  it("takes 500 host names, the most a user may keep", async () => {
    const many = Array.from({ length: 500 }, (_, i) => `site${i}.example.net`);
    expect((await saveHints(stranger.token, [...many, ...many])).statusCode).toBe(200);
    expect(await hints(stranger.token)).toHaveLength(500);
  });
});

describe("routing rules", () => {
  beforeAll(async () => {
    await t.database.query(
      `INSERT INTO domain_verdicts (domain, verdict, last_probe_at, evidence) VALUES
       ('fast.example.com', 'eligible', now(), '{"source":"probe","signal":"served through datacenter like mobile (status 200)","observations":[]}'),
       ('guarded.example.com', 'blocked', now(), '{"source":"probe","signal":"status 403","observations":[]}')`,
    );
  });

  it("hinting a domain the learner already judged makes the rule at once, with its verdict and evidence", async () => {
    expect(
      (await saveHints(owner.token, ["fast.example.com", "guarded.example.com", "new.example.com"]))
        .statusCode,
    ).toBe(200);
    const list = await rules(owner.token);
    expect(list.map((r) => [r.rule, r.service, r.enabled, r.verdict, r.decided_by])).toEqual([
      ["fast.example.com", "datacenter", true, "eligible", "learner"],
      ["guarded.example.com", "premium", false, "blocked", "learner"],
    ]);
    expect(list[1]?.evidence).toEqual({ source: "probe", signal: "status 403", observations: [] });
    expect(typeof list[0]?.last_probe_at).toBe("string");
    expect(await rules(stranger.token)).toEqual([]);
  });

  it("shows the GB routed over datacenter in 30 days, subdomains included, and what that saved", async () => {
    await insertRollups(t.database, [
      {
        userId: owner.id,
        daysAgo: 0,
        domain: "fast.example.com",
        proxyType: "dc",
        bytes: 1_500_000_000,
        requests: 3,
      },
      {
        userId: owner.id,
        daysAgo: 3,
        domain: "img.fast.example.com",
        proxyType: "dc",
        bytes: 500_000_000,
        requests: 1,
      },
      {
        userId: owner.id,
        daysAgo: 1,
        domain: "fast.example.com",
        proxyType: "mobile",
        bytes: 9_000_000_000,
        requests: 1,
      },
      {
        userId: owner.id,
        daysAgo: 45,
        domain: "fast.example.com",
        proxyType: "dc",
        bytes: 7_000_000_000,
        requests: 1,
      },
      {
        userId: owner.id,
        daysAgo: 0,
        domain: "notfast.example.com",
        proxyType: "dc",
        bytes: 7_000_000_000,
        requests: 1,
      },
    ]);
    const [fast] = await rules(owner.token);
    // 2 GB at $3 instead of $0.3 per GB.
    expect(fast).toMatchObject({ rule: "fast.example.com", dc_gb_30d: 2, saved_usd_30d: 5.4 });
  });

  it("the owner's toggle switches the rule and the learner no longer decides it", async () => {
    const [fast, guarded] = await rules(owner.token);
    const off = await toggle(owner.token, fast?.id, { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toMatchObject({
      id: fast?.id,
      service: "premium",
      enabled: false,
      decided_by: "user",
      verdict: "eligible",
    });
    const on = await toggle(owner.token, guarded?.id, { enabled: true });
    expect(on.json().data).toMatchObject({
      service: "datacenter",
      enabled: true,
      decided_by: "user",
      verdict: "blocked",
    });
    expect((await rules(owner.token)).map((r) => r.enabled)).toEqual([false, true]);
  });

  it("another user's rule is 404, a non-boolean 400, and neither changes anything", async () => {
    const before = await rules(owner.token);
    const id = before[0]?.id;
    const foreign = await toggle(stranger.token, id, { enabled: true });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ success: false, message: "Routing rule not found" });
    for (const payload of [{ enabled: "true" }, { enabled: 1 }, {}, { enabled: null }]) {
      const bad = await toggle(owner.token, id, payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ success: false, message: "enabled must be true or false" });
    }
    for (const path of ["abc", "0", "-1", "99999999999999999999"]) {
      expect((await toggle(owner.token, path, { enabled: true })).statusCode).toBe(404);
    }
    expect(await rules(owner.token)).toEqual(before);
  });
});

describe("the operator's decision on a domain", () => {
  it("comes with the rules and the hints it covers, so the page can say what routing does", async () => {
    const customer = await signIn(t.app, "override-customer@example.com");
    await t.database.query(
      "INSERT INTO domain_verdicts (domain, verdict, last_probe_at) VALUES ('judged.override.test', 'blocked', now())",
    );
    expect(
      (await saveHints(customer.token, ["judged.override.test", "fresh.override.test"])).statusCode,
    ).toBe(200);
    const forced = await t.app.inject({
      method: "PUT",
      url: "/admin/intelligence/domains/override.test/override",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { override: "datacenter" },
    });
    expect(forced.statusCode).toBe(200);
    const listed = await t.app.inject({
      method: "GET",
      url: "/settings/hostnames",
      headers: bearer(customer.token),
    });
    expect(listed.json().data.hostnames).toEqual([
      { hostname: "judged.override.test", override: "datacenter" },
      { hostname: "fresh.override.test", override: "datacenter" },
    ]);
    expect(await rules(customer.token)).toEqual([
      expect.objectContaining({ rule: "judged.override.test", service: "premium", override: "datacenter" }),
    ]);
    // Another customer's view of other domains is untouched.
    expect((await rules(stranger.token)).every((rule) => rule.override === null)).toBe(true);
  });
});
