import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { loadGatewayConfig } from "@bytetoll/egress";
import { Prober } from "@bytetoll/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let database: TestDatabase;
let t: TestApp;

/** The cap this test runs with; production's is 60 probes per account per hour. */
const CAP = 3;

beforeAll(async () => {
  database = await createTestDatabase();
  // No name resolves: every probe ends at once, and nothing leaves the machine. The loop never
  // ticks on its own; the test runs each tick, one probe per tick.
  const network = { ...loadGatewayConfig({}), resolveHost: async () => [] };
  t = await createTestApp(
    {},
    {
      database,
      beforeReady: (app) =>
        app.intelligence.learner.configure({
          prober: new Prober(network),
          settings: { tickMs: 3_600_000, concurrency: 1, probesPerAccountHour: CAP },
        }),
    },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await database?.close();
});

const saveHints = (token: string, hostnames: string[]) =>
  t.app.inject({
    method: "POST",
    url: "/settings/hostnames",
    headers: bearer(token),
    payload: { hostnames },
  });

/** Domains probed so far, in the order they were claimed. */
const probed = async () =>
  (
    await database.query<{ domain: string }>(
      "SELECT domain FROM domain_verdicts WHERE last_probe_at IS NOT NULL ORDER BY last_probe_at, domain",
    )
  ).map((row) => row.domain);

describe("hint flooding", () => {
  it("a new customer's hint is probed in the first round however many names others flood in; re-saving requeues nothing; each account has a cap", async () => {
    const flooders = await Promise.all([1, 2, 3].map((n) => signIn(t.app, `flooder${n}@example.com`)));
    const junk = (n: number) => Array.from({ length: 500 }, (_, i) => `junk${i}.flood${n}.example`);
    for (const [n, flooder] of flooders.entries())
      expect((await saveHints(flooder.token, junk(n))).statusCode).toBe(200);
    const newcomer = await signIn(t.app, "newcomer@example.com");
    expect((await saveHints(newcomer.token, ["my-shop.example"])).statusCode).toBe(200);

    const accounts = flooders.length + 1;
    for (let i = 0; i < accounts; i++) await t.app.intelligence.learner.tick();
    const firstRound = await probed();
    expect(firstRound).toHaveLength(accounts);
    expect(firstRound).toContain("my-shop.example");
    // One name of each flooder, not three of the first one's.
    expect(new Set(firstRound.map((domain) => domain.split(".")[1])).size).toBe(accounts);

    // Re-saving the same names every minute moves nothing forward.
    const due = async () =>
      (
        await database.query<{ domain: string; next_probe_at: Date }>(
          "SELECT domain, next_probe_at FROM domain_verdicts WHERE domain = ANY($1::text[]) ORDER BY domain",
          [firstRound],
        )
      ).map((row) => [row.domain, new Date(row.next_probe_at).toISOString()]);
    const before = await due();
    for (const [n, flooder] of flooders.entries()) await saveHints(flooder.token, junk(n));
    expect(await due()).toEqual(before);

    // However many ticks run, no flooder gets more than its cap per hour.
    for (let i = 0; i < 3 * CAP + 3; i++) await t.app.intelligence.learner.tick();
    const all = await probed();
    const perFlooder = [0, 1, 2].map(
      (n) => all.filter((domain) => domain.endsWith(`.flood${n}.example`)).length,
    );
    expect(perFlooder).toEqual([CAP, CAP, CAP]);
  }, 120_000);
});
