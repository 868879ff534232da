/**
 * A per-process read cache that the database's change feed keeps honest (decision 006).
 *
 * Entries are grouped by what invalidates them (a user id, a session id…): `invalidate(group)`
 * drops every entry of the group and disowns loads still in flight, so a read that began before a
 * change can never store its older answer afterwards. While the feed is down nothing is served
 * from or stored in the cache (`setLive(false)` also empties it); every entry also ends after
 * `ttlMs` as a last resort. Concurrent misses for one key share one load.
 */

export interface ChangeCacheOptions {
  /** Oldest entries are dropped beyond this many. */
  maxEntries: number;
  /** Longest an entry is served, even if no change arrives. */
  ttlMs: number;
}

interface Entry<V> {
  value: V;
  group: string;
  expiresAt: number;
}

interface Load<V> {
  promise: Promise<V>;
  group: string;
}

export interface CacheStats {
  hits: number;
  misses: number;
  entries: number;
}

export class ChangeCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #loads = new Map<string, Load<V>>();
  readonly #groups = new Map<string, Set<string>>();
  #live = false;
  #hits = 0;
  #misses = 0;

  constructor(readonly options: ChangeCacheOptions) {}

  /**
   * The cached value of `key`, or `load()`'s, stored under `group` when `keep` allows it (default:
   * always), until `until(value)` (epoch ms) if that comes before the TTL.
   */
  get(
    group: string,
    key: string,
    load: () => Promise<V>,
    options: { keep?: (value: V) => boolean; until?: (value: V) => number } = {},
  ): Promise<V> {
    if (!this.#live) return load();
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.expiresAt > Date.now()) {
      this.#hits++;
      return Promise.resolve(entry.value);
    }
    const pending = this.#loads.get(key);
    if (pending !== undefined) return pending.promise;
    this.#misses++;
    return this.#load(group, key, load, options);
  }

  async #load(
    group: string,
    key: string,
    load: () => Promise<V>,
    options: { keep?: (value: V) => boolean; until?: (value: V) => number },
  ): Promise<V> {
    const current: Load<V> = { promise: load(), group };
    this.#loads.set(key, current);
    this.#join(group, key);
    try {
      const value = await current.promise;
      // Still ours only if no change to the group (and no feed outage) happened meanwhile.
      if (this.#loads.get(key) === current && (options.keep?.(value) ?? true)) {
        const expiresAt = Math.min(Date.now() + this.options.ttlMs, options.until?.(value) ?? Infinity);
        this.#entries.delete(key);
        this.#entries.set(key, { value, group, expiresAt });
        this.#evict();
      }
      return value;
    } finally {
      if (this.#loads.get(key) === current) {
        this.#loads.delete(key);
        if (!this.#entries.has(key)) this.#leave(group, key);
      }
    }
  }

  /** Something under `group` changed: forget it, including answers still being loaded. */
  invalidate(group: string): void {
    const keys = this.#groups.get(group);
    if (keys === undefined) return;
    for (const key of keys) {
      this.#entries.delete(key);
      this.#loads.delete(key);
    }
    this.#groups.delete(group);
  }

  /** The change feed is (again) listening, or it lost its connection and changes may be missed. */
  setLive(live: boolean): void {
    this.#entries.clear();
    this.#loads.clear();
    this.#groups.clear();
    this.#live = live;
  }

  get live(): boolean {
    return this.#live;
  }

  stats(): CacheStats {
    return { hits: this.#hits, misses: this.#misses, entries: this.#entries.size };
  }

  #join(group: string, key: string): void {
    let keys = this.#groups.get(group);
    if (keys === undefined) {
      keys = new Set();
      this.#groups.set(group, keys);
    }
    keys.add(key);
  }

  #leave(group: string, key: string): void {
    const keys = this.#groups.get(group);
    if (keys === undefined) return;
    keys.delete(key);
    if (keys.size === 0) this.#groups.delete(group);
  }

  #evict(): void {
    while (this.#entries.size > this.options.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) return;
      const entry = this.#entries.get(oldest.value);
      this.#entries.delete(oldest.value);
      if (entry !== undefined && !this.#loads.has(oldest.value)) this.#leave(entry.group, oldest.value);
    }
  }
}
