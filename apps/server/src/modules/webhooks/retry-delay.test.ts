import { describe, expect, it } from "vitest";
import { RETRY_WINDOW_MS, retryDelay } from "./dispatcher.ts";

const BASE = 30_000;
const raised = new Date("2026-11-26T00:00:00Z");

describe("webhook retry schedule", () => {
  it("doubles from 30 s and stays at most an hour apart", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((attempts) =>
      retryDelay(attempts, raised, BASE, raised.getTime()),
    );
    expect(delays).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000,
    ]);
  });

  it("gives up once the next try would fall after 24 hours", () => {
    const late = raised.getTime() + RETRY_WINDOW_MS - 10_000;
    expect(retryDelay(1, raised, BASE, late)).toBeNull();
    expect(retryDelay(1, raised, BASE, late - 30_000)).toBe(30_000);
  });
});
