import { describe, expect, it } from "vitest";
import { lastDays } from "./day-window.ts";

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
