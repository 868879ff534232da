import { describe, expect, it } from "vitest";
import { ChangeCache } from "./change-cache.ts";

/** A load the test finishes by hand, counting how often the database would have been asked. */
function controlledLoads<V>() {
  const calls: Array<(value: V) => void> = [];
  return {
    calls,
    load: () => new Promise<V>((resolve) => calls.push(resolve)),
  };
}

const liveCache = <V>(options = { maxEntries: 100, ttlMs: 60_000 }) => {
  const cache = new ChangeCache<V>(options);
  cache.setLive(true);
  return cache;
};

describe("ChangeCache", () => {
  it("answers a repeated read from memory and shares one load between concurrent misses", async () => {
    const cache = liveCache<number>();
    const { calls, load } = controlledLoads<number>();
    const first = cache.get("user:1", "user:1", load);
    const second = cache.get("user:1", "user:1", load);
    expect(calls).toHaveLength(1);
    calls[0]?.(5);
    expect(await first).toBe(5);
    expect(await second).toBe(5);
    expect(await cache.get("user:1", "user:1", load)).toBe(5);
    expect(calls).toHaveLength(1);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, entries: 1 });
  });

  it("drops every entry of a changed group, and only that group", async () => {
    const cache = liveCache<string>();
    let reads = 0;
    const load = (value: string) => async () => {
      reads++;
      return value;
    };
    await cache.get("orders:a", "a:page1", load("a1"));
    await cache.get("orders:a", "a:page2", load("a2"));
    await cache.get("orders:b", "b:page1", load("b1"));
    cache.invalidate("orders:a");
    expect(await cache.get("orders:a", "a:page1", load("a1 new"))).toBe("a1 new");
    expect(await cache.get("orders:a", "a:page2", load("a2 new"))).toBe("a2 new");
    expect(await cache.get("orders:b", "b:page1", load("b1 new"))).toBe("b1");
    expect(reads).toBe(5);
  });

  it("never stores an answer that was being read when its group changed", async () => {
    const cache = liveCache<number>();
    const { calls, load } = controlledLoads<number>();
    const before = cache.get("user:1", "user:1", load);
    cache.invalidate("user:1"); // the balance changed while the old value was on its way
    const after = cache.get("user:1", "user:1", load);
    expect(calls).toHaveLength(2); // the read after the change does not join the stale one
    calls[0]?.(100);
    calls[1]?.(40);
    expect(await before).toBe(100);
    expect(await after).toBe(40);
    expect(await cache.get("user:1", "user:1", load)).toBe(40);
    expect(calls).toHaveLength(2);
  });

  it("reads through, keeping nothing, while the feed is down; a read across an outage is not kept", async () => {
    const cache = new ChangeCache<number>({ maxEntries: 100, ttlMs: 60_000 });
    let reads = 0;
    const load = async () => ++reads;
    await cache.get("user:1", "user:1", load);
    await cache.get("user:1", "user:1", load);
    expect(reads).toBe(2);
    cache.setLive(true);
    const { calls, load: slow } = controlledLoads<number>();
    const inFlight = cache.get("user:1", "user:1", slow);
    cache.setLive(false);
    cache.setLive(true);
    calls[0]?.(7);
    expect(await inFlight).toBe(7);
    expect(await cache.get("user:1", "user:1", load)).toBe(3);
  });

  it("keeps only what `keep` allows, ends entries at `until` or the TTL, and holds at most maxEntries", async () => {
    const cache = liveCache<number | null>({ maxEntries: 2, ttlMs: 60_000 });
    let reads = 0;
    const nothing = async () => {
      reads++;
      return null;
    };
    await cache.get("t", "t", nothing, { keep: (value) => value !== null });
    await cache.get("t", "t", nothing, { keep: (value) => value !== null });
    expect(reads).toBe(2);

    await cache.get("u", "u", async () => 1, { until: () => Date.now() - 1 });
    expect(await cache.get("u", "u", async () => 2)).toBe(2);

    await cache.get("x", "x", async () => 3);
    await cache.get("y", "y", async () => 4);
    expect(cache.stats().entries).toBe(2);
    expect(await cache.get("u", "u", async () => 5)).toBe(5); // the oldest was dropped

    const short = liveCache<number>({ maxEntries: 10, ttlMs: 0 });
    await short.get("k", "k", async () => 1);
    expect(await short.get("k", "k", async () => 2)).toBe(2);
  });

  it("passes a failed load to everyone waiting on it and keeps nothing", async () => {
    const cache = liveCache<number>();
    const failing = async () => {
      throw new Error("database down");
    };
    await expect(cache.get("user:1", "user:1", failing)).rejects.toThrow("database down");
    expect(await cache.get("user:1", "user:1", async () => 9)).toBe(9);
  });
});
