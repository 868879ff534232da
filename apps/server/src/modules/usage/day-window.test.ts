import { describe, expect, it } from "vitest";
import { type DayWindow, lastDays, splitIntoWeeks } from "./day-window.ts";

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

/** Every day of a window, to check that a split covers it exactly once. */
function daysOf(window: DayWindow): string[] {
  const days: string[] = [];
  for (
    let t = Date.parse(`${window.from}T00:00:00Z`);
    t <= Date.parse(`${window.to}T00:00:00Z`);
    t += 86_400_000
  ) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

describe("splitIntoWeeks", () => {
  it("cuts 90 days into whole Monday–Sunday weeks and the loose days at both ends", () => {
    // 2025-03-01 is a Saturday; 90 days back is Monday 2024-12-02.
    expect(splitIntoWeeks(lastDays(90, new Date("2025-03-01T10:00:00Z")))).toEqual({
      weeks: { from: "2024-12-02", to: "2025-02-17" },
      head: { from: "2024-12-02", to: "2024-12-01" },
      tail: { from: "2025-02-24", to: "2025-03-01" },
    });
  });

  it("leaves a window without a whole week to the days alone", () => {
    const window = { from: "2025-02-26", to: "2025-03-04" };
    expect(splitIntoWeeks(window).head).toEqual(window);
    expect(daysOf(splitIntoWeeks(window).weeks)).toEqual([]);
    expect(daysOf(splitIntoWeeks(window).tail)).toEqual([]);
  });

  it("covers every day exactly once for every period ending on every weekday", () => {
    for (const period of [1, 7, 14, 30, 90]) {
      for (let offset = 0; offset < 7; offset++) {
        const window = lastDays(period, new Date(Date.UTC(2025, 0, 6 + offset, 12)));
        const split = splitIntoWeeks(window);
        const weekDays = daysOf(split.weeks)
          .filter((_, index) => index % 7 === 0)
          .flatMap((monday) =>
            daysOf({
              from: monday,
              to: new Date(Date.parse(`${monday}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10),
            }),
          );
        const covered = [...daysOf(split.head), ...weekDays, ...daysOf(split.tail)].sort();
        expect(covered).toEqual(daysOf(window));
        for (const monday of daysOf(split.weeks).filter((_, index) => index % 7 === 0)) {
          expect(new Date(`${monday}T00:00:00Z`).getUTCDay()).toBe(1);
        }
      }
    }
  });
});
