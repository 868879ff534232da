import { describe, expect, it } from "vitest";
import { lastDays, type SpanRange, spanRanges } from "./day-window.ts";

describe("lastDays", () => {
  it("ends on today's UTC date even late in the evening west of Greenwich", () => {
    // 23:30 in New York on 31 Dec is already 1 Jan in UTC.
    expect(lastDays(1, new Date("2025-01-01T04:30:00Z"))).toEqual({ from: "2025-01-01", to: "2025-01-01" });
  });

  it("counts today as the last of N days, across month and leap-day boundaries", () => {
    expect(lastDays(7, new Date("2024-03-03T12:00:00Z"))).toEqual({ from: "2024-02-26", to: "2024-03-03" });
    expect(lastDays(90, new Date("2024-03-31T00:00:00Z"))).toEqual({ from: "2024-01-02", to: "2024-03-31" });
  });
});

const DAY_MS = 86_400_000;
const timeOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** How many times the ranges count `day`: each range adds or takes away its periods' days. */
function timesCounted(ranges: SpanRange[], day: number): number {
  return ranges.reduce((sum, range) => {
    const start =
      day - (((((day - Date.UTC(1970, 0, 5)) / DAY_MS) % range.span) + range.span) % range.span) * DAY_MS;
    return start >= timeOf(range.first) && start <= timeOf(range.last) ? sum + range.sign : sum;
  }, 0);
}

/** Periods of each span the ranges read that start on or before `to`. */
function periodsRead(ranges: SpanRange[], to: string): Record<number, number> {
  const read: Record<number, number> = { 1: 0, 7: 0, 28: 0 };
  for (const range of ranges) {
    const last = Math.min(timeOf(range.last), timeOf(to));
    read[range.span]! += Math.max(0, Math.floor((last - timeOf(range.first)) / (range.span * DAY_MS)) + 1);
  }
  return read;
}

describe("spanRanges", () => {
  it("counts every day of the window once and no other day, for every period ending on any day of 8 weeks", () => {
    for (const period of [1, 7, 14, 30, 90]) {
      for (let offset = 0; offset < 56; offset++) {
        const window = lastDays(period, new Date(Date.UTC(2025, 0, 6 + offset, 12)));
        const ranges = spanRanges(window);
        for (
          let day = timeOf(window.from) - 120 * DAY_MS;
          day <= timeOf(window.to) + 120 * DAY_MS;
          day += DAY_MS
        ) {
          const inside = day >= timeOf(window.from) && day <= timeOf(window.to);
          expect(timesCounted(ranges, day), new Date(day).toISOString()).toBe(inside ? 1 : 0);
        }
        for (const range of ranges) {
          const startDay = (timeOf(range.first) - Date.UTC(1970, 0, 5)) / DAY_MS;
          expect(startDay % range.span).toBe(0);
        }
      }
    }
  });

  it("reads at most 4 days, 2 weeks and 4 four-week spans of a 90-day window, and one day of a 1-day window", () => {
    for (let offset = 0; offset < 56; offset++) {
      const now = new Date(Date.UTC(2025, 0, 6 + offset, 12));
      const window = lastDays(90, now);
      const read = periodsRead(spanRanges(window), window.to);
      expect(read[1]).toBeLessThanOrEqual(4);
      expect(read[7]).toBeLessThanOrEqual(2);
      expect(read[28]).toBeLessThanOrEqual(4);
      const today = lastDays(1, now);
      expect(periodsRead(spanRanges(today), today.to)).toEqual({ 1: 1, 7: 0, 28: 0 });
    }
  });

  it("reads nothing for an empty window", () => {
    expect(spanRanges({ from: "2025-03-02", to: "2025-03-01" })).toEqual([]);
  });
});
