import { CONNECT_MS_BOUNDS, histogramMedian, parseUpstream } from "@bytetoll/egress";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Exit } from "./upstream-health.ts";
import { UpstreamPool } from "./upstream-pool.ts";

const settings = { downAfterFailures: 3, firstRetryMs: 1_000, maxRetryMs: 4_000 };
const spec = parseUpstream("http://exit.example:3128");

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-11-23T10:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets the exit's background retry settle. Not runAllTimers: files share their worker, and it
 * would also run whatever timers other modules keep (a table reloading every few seconds
 * reschedules itself without end). */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe("connect-time median", () => {
  it("is interpolated in the bucket holding the middle attempt, null without attempts", () => {
    const buckets = new Array(CONNECT_MS_BOUNDS.length + 1).fill(0);
    expect(histogramMedian(buckets)).toBeNull();
    // Four attempts in 20–50 ms: the middle one is half-way through that bucket.
    buckets[5] = 4;
    expect(histogramMedian(buckets)).toBe(35);
    // Past the last bound: reported at the bound.
    const slow = new Array(CONNECT_MS_BOUNDS.length + 1).fill(0);
    slow[CONNECT_MS_BOUNDS.length] = 1;
    expect(histogramMedian(slow)).toBe(10_000);
  });
});

describe("an exit's health", () => {
  it("goes down after three of its own failures in a row; a target refused behind it does not count", () => {
    const exit = new Exit("mobile", spec, settings);
    exit.failed(true);
    exit.failed(true);
    exit.failed(false);
    exit.failed(true);
    expect(exit.down).toBe(false);
    exit.failed(true);
    exit.failed(true);
    expect(exit.down).toBe(true);
    const [figures] = exit.openMinutes();
    expect(figures).toMatchObject({ attempts: 6, failures: 5 });
  });

  it("is retried in the background after its back-off, which doubles while it stays unreachable", async () => {
    let reachable = false;
    const reach = vi.fn(async () => {
      if (!reachable) throw new Error("ECONNREFUSED");
    });
    const exit = new Exit("mobile", spec, settings, () => {}, reach);
    for (let i = 0; i < 3; i++) exit.failed(true);
    exit.retryIfDue(Date.now());
    expect(reach).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    exit.retryIfDue(Date.now());
    // One retry at a time.
    exit.retryIfDue(Date.now());
    expect(reach).toHaveBeenCalledTimes(1);
    await settle();
    expect(exit.down).toBe(true);
    vi.advanceTimersByTime(1_000);
    exit.retryIfDue(Date.now());
    expect(reach).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    reachable = true;
    exit.retryIfDue(Date.now());
    expect(reach).toHaveBeenCalledTimes(2);
    await settle();
    expect(exit.down).toBe(false);
  });

  it("keeps doubling its back-off when it fails again soon after coming back, and starts over once it stayed up", async () => {
    const exit = new Exit(
      "mobile",
      spec,
      settings,
      () => {},
      async () => {},
    );
    const goDown = () => {
      for (let i = 0; i < 3; i++) exit.failed(true);
      expect(exit.down).toBe(true);
    };
    /** Comes back at the first retry past `ms` and not before. */
    const backAfter = async (ms: number) => {
      vi.advanceTimersByTime(ms - 1);
      exit.retryIfDue(Date.now());
      await settle();
      expect(exit.down).toBe(true);
      vi.advanceTimersByTime(1);
      exit.retryIfDue(Date.now());
      await settle();
      expect(exit.down).toBe(false);
    };
    goDown();
    await backAfter(1_000);
    goDown();
    await backAfter(2_000);
    goDown();
    await backAfter(4_000);
    goDown();
    await backAfter(4_000);
    // Up for longer than the longest back-off: a new failure starts at the first again.
    vi.advanceTimersByTime(4_000);
    goDown();
    await backAfter(1_000);
  });

  it("is skipped by the pool while down, sticky sessions re-hash over the rest, and all are tried when all are down", () => {
    const pool = new UpstreamPool(
      "mobile",
      [parseUpstream("http://a.example:1"), parseUpstream("http://b.example:1")],
      settings,
      () => {},
      () => new Promise(() => {}),
    );
    const [a, b] = pool.exits as [Exit, Exit];
    for (let i = 0; i < 3; i++) b.failed(true);
    for (let i = 0; i < 4; i++) expect(pool.pick(undefined)).toBe(a);
    for (const session of ["u:aaaaaaaa", "u:bbbbbbbb", "u:cccccccc"]) expect(pool.pick(session)).toBe(a);
    for (let i = 0; i < 3; i++) a.failed(true);
    const picked = new Set([pool.pick(undefined), pool.pick(undefined)]);
    expect(picked).toEqual(new Set([a, b]));
  });
});
