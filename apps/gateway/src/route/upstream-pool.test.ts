import { parseUpstream, type UpstreamSpec } from "@bytetoll/egress";
import { describe, expect, it } from "vitest";
import { UpstreamPool } from "./upstream-pool.ts";

const exit = (host: string, weight: number): UpstreamSpec => ({
  ...parseUpstream(`http://${host}:3128?country=us`),
  weight,
  ledger: { key: host, name: host, costPerGbMicros: 1_000_000 },
});

function counts(pick: () => string, times: number): Map<string, number> {
  const seen = new Map<string, number>();
  for (let i = 0; i < times; i++) {
    const id = pick();
    seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  return seen;
}

describe("weighted exits", () => {
  it("round robin gives each exit its weight's share, exactly over a full cycle", () => {
    const pool = new UpstreamPool("mobile", [parseUpstream("direct")]);
    pool.setConsole([exit("a.test", 1), exit("b.test", 3)]);
    const seen = counts(() => (pool.choose({ country: "US" })?.exit.spec.ledger?.key as string) ?? "", 400);
    expect(seen.get("a.test")).toBe(100);
    expect(seen.get("b.test")).toBe(300);
  });

  it("sticky sessions spread by weight and stay put when another exit's weight changes", () => {
    const pool = new UpstreamPool("mobile", [parseUpstream("direct")]);
    pool.setConsole([exit("a.test", 1), exit("b.test", 4), exit("c.test", 1)]);
    const sessions = Array.from({ length: 3_000 }, (_, i) => `acct:s${i}`);
    const before = new Map(
      sessions.map((key) => [key, pool.choose({ sessionKey: key, country: "US" })?.exit.spec.ledger?.key]),
    );
    const onB = [...before.values()].filter((key) => key === "b.test").length;
    // 4/6 of the sessions, within a few percent.
    expect(onB / sessions.length).toBeGreaterThan(0.62);
    expect(onB / sessions.length).toBeLessThan(0.71);
    // c's weight goes up: sessions only move to c, never between a and b.
    pool.setConsole([exit("a.test", 1), exit("b.test", 4), exit("c.test", 3)]);
    for (const key of sessions) {
      const now = pool.choose({ sessionKey: `${key}`, country: "US" })?.exit.spec.ledger?.key;
      if (now !== before.get(key)) expect(now).toBe("c.test");
    }
  });

  it("an exit taken out of the console gets no new connection, and its open flows book at its successor's cost", () => {
    const pool = new UpstreamPool("mobile", [parseUpstream("direct")]);
    pool.setConsole([exit("a.test", 1)]);
    const open = pool.choose({ country: "US" })?.exit;
    pool.setConsole([
      { ...exit("a.test", 1), ledger: { key: "a.test", name: "a", costPerGbMicros: 2_500_000 } },
    ]);
    expect(open?.booking.costPerGbMicros).toBe(2_500_000);
    pool.setConsole([]);
    expect(pool.choose({ country: "US" })).toBeNull();
  });
});
