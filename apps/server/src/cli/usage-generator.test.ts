import { describe, expect, it } from "vitest";
import { type GeneratedRow, generateUsage } from "./usage-generator.ts";

const OPTIONS = {
  userId: "unused",
  days: 140,
  domains: 300,
  targetRows: 30_000,
  until: "2025-06-29",
  seed: 7,
};
const rows: GeneratedRow[] = [...generateUsage(OPTIONS)];

function sumBy<K>(key: (row: GeneratedRow) => K): Map<K, number> {
  const totals = new Map<K, number>();
  for (const row of rows) totals.set(key(row), (totals.get(key(row)) ?? 0) + row.bytes);
  return totals;
}

describe("the usage generator", () => {
  it("lands near the requested row count, inside the requested days, one row per key", () => {
    expect(rows.length).toBeGreaterThan(30_000 * 0.9);
    expect(rows.length).toBeLessThan(30_000 * 1.1);
    const days = new Set(rows.map((row) => row.day));
    expect(days.size).toBe(140);
    expect([...days].sort().at(-1)).toBe("2025-06-29");
    const keys = new Set(rows.map((row) => `${row.day} ${row.domain} ${row.proxyType}`));
    expect(keys.size).toBe(rows.length);
  });

  it("is repeatable for a seed and different for another", () => {
    expect([...generateUsage(OPTIONS)].slice(0, 50)).toEqual(rows.slice(0, 50));
    expect([...generateUsage({ ...OPTIONS, seed: 8 })].slice(0, 50)).not.toEqual(rows.slice(0, 50));
  });

  it("has quieter weekends than weekdays", () => {
    const byWeekday = sumBy((row) => new Date(`${row.day}T00:00:00Z`).getUTCDay());
    const weekend = (byWeekday.get(0)! + byWeekday.get(6)!) / 2;
    const weekday = [1, 2, 3, 4, 5].reduce((sum, day) => sum + byWeekday.get(day)!, 0) / 5;
    expect(weekend).toBeLessThan(weekday * 0.8);
  });

  it("gives a few domains most of the traffic (Zipf) and routes only some over datacenter", () => {
    const totals = [...sumBy((row) => row.domain).values()].sort((a, b) => b - a);
    const all = totals.reduce((sum, bytes) => sum + bytes, 0);
    const top10 = totals.slice(0, 10).reduce((sum, bytes) => sum + bytes, 0);
    expect(top10 / all).toBeGreaterThan(0.4);
    const dcDomains = new Set(rows.filter((row) => row.proxyType === "dc").map((row) => row.domain));
    expect(dcDomains.size).toBeGreaterThan(300 * 0.2);
    expect(dcDomains.size).toBeLessThan(300 * 0.5);
    expect(rows.filter((row) => row.bytes <= 0 || row.requests < 1)).toEqual([]);
  });
});
