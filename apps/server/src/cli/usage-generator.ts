import type { Database } from "@bytetoll/db";

/**
 * Realistic usage rollups for demos and benchmarks: a weekly rhythm (weekends quieter), slow
 * growth over the range, Zipf-distributed domain popularity (a few domains carry most traffic,
 * a long tail appears now and then), and a mobile/datacenter mix where only some domains are
 * routed over datacenter. Deterministic for a given seed, so benchmarks are repeatable.
 */
export interface UsageGeneratorOptions {
  userId: string;
  /** Days back from `until` (inclusive), e.g. 730 for two years. */
  days: number;
  /** Distinct domains in the account's history. */
  domains: number;
  /** Roughly how many rollup rows to produce in total (default: ~1.5 rows per domain-day at the head). */
  targetRows?: number;
  /** Last day, YYYY-MM-DD (UTC); default today. */
  until?: string;
  seed?: number;
  /** Rows per INSERT statement. */
  batchSize?: number;
}

export interface GeneratedRow {
  day: string;
  domain: string;
  proxyType: "mobile" | "dc";
  bytes: number;
  requests: number;
}

const DAY_MS = 86_400_000;
const ZIPF_EXPONENT = 1.07;
/** Monday … Sunday: business traffic, quieter weekend. */
const WEEKDAY_FACTOR = [1.0, 1.04, 1.08, 1.05, 0.96, 0.62, 0.55];
const MOBILE_ROW_CHANCE = 0.92;
const DC_ELIGIBLE_SHARE = 0.35;
const DC_ROW_CHANCE = 0.8;
/** Bytes per day across all domains at the end of the range, before noise. */
const DAILY_BYTES = 40e9;

/** mulberry32: small, fast, good enough for synthetic data, and seedable. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "shop",
  "news",
  "cdn",
  "api",
  "data",
  "market",
  "travel",
  "price",
  "social",
  "search",
  "media",
  "cloud",
  "stream",
  "maps",
  "jobs",
  "auto",
  "home",
  "food",
  "sport",
  "games",
  "music",
  "books",
  "deals",
  "health",
];
const TLDS = ["com", "net", "io", "co.uk", "de", "fr", "com.br", "jp", "org", "shop"];

/** Plausible, unique host names: popular ones short, the tail longer. */
export function domainName(rank: number): string {
  const word = WORDS[rank % WORDS.length];
  const tld = TLDS[Math.floor(rank / WORDS.length) % TLDS.length];
  const prefix = rank % 3 === 0 ? "www." : rank % 3 === 1 ? "api." : "";
  return `${prefix}${word}${rank}.${tld}`;
}

/** Daily activity chance of the domain at each rank: min(1, scale / rank^0.6). */
function activityOf(domains: number, scale: number): number[] {
  return Array.from({ length: domains }, (_, index) => Math.min(1, scale / (index + 1) ** 0.6));
}

/** The activity scale that makes the expected rows match the target (bisection: monotone). */
function scaleFor(domains: number, days: number, targetRows: number, rowsPerActive: number): number {
  let low = 0;
  let high = domains ** 0.6;
  for (let step = 0; step < 60; step++) {
    const mid = (low + high) / 2;
    const active = activityOf(domains, mid).reduce((sum, chance) => sum + chance, 0);
    if (active * days * rowsPerActive < targetRows) low = mid;
    else high = mid;
  }
  return high;
}

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Yields the rows day by day, oldest first; nothing is held beyond one day. */
export function* generateUsage(options: UsageGeneratorOptions): Generator<GeneratedRow> {
  const { days, domains } = options;
  const next = random(options.seed ?? 20_240_601);
  const rowsPerActive = MOBILE_ROW_CHANCE + DC_ELIGIBLE_SHARE * DC_ROW_CHANCE;
  const targetRows = options.targetRows ?? Math.round(days * Math.min(domains, 400) * 1.5);
  const activity = activityOf(domains, scaleFor(domains, days, targetRows, rowsPerActive));
  const zipfTotal = activity.reduce((sum, _chance, index) => sum + 1 / (index + 1) ** ZIPF_EXPONENT, 0);
  const names = Array.from({ length: domains }, (_, index) => domainName(index));
  const dcEligible = Array.from({ length: domains }, () => next() < DC_ELIGIBLE_SHARE);
  // Average response size per domain: APIs small, media large (10 KB … ~2 MB).
  const bytesPerRequest = Array.from({ length: domains }, () => 10_000 * 200 ** next());

  const until = options.until ? Date.parse(`${options.until}T00:00:00Z`) : Date.now();
  const last = Math.floor(until / DAY_MS) * DAY_MS;
  for (let offset = days - 1; offset >= 0; offset--) {
    const time = last - offset * DAY_MS;
    const weekday = (new Date(time).getUTCDay() + 6) % 7;
    const growth = 0.45 + 0.55 * ((days - offset) / days);
    const dayBytes = DAILY_BYTES * WEEKDAY_FACTOR[weekday]! * growth * (0.85 + 0.3 * next());
    const day = isoDay(time);
    for (let index = 0; index < domains; index++) {
      if (next() >= activity[index]!) continue;
      // Zipf share of the day, with day-to-day noise (log-normal-ish: product of uniforms).
      const share = 1 / (index + 1) ** ZIPF_EXPONENT / zipfTotal;
      const bytes = dayBytes * share * (0.3 + 1.4 * next()) * (0.5 + next());
      const dcShare = dcEligible[index] ? 0.4 + 0.5 * next() : 0;
      const hasMobile = next() < MOBILE_ROW_CHANCE || !dcEligible[index];
      const hasDc = dcEligible[index] && next() < DC_ROW_CHANCE;
      const parts: Array<["mobile" | "dc", number]> = [];
      if (hasMobile) parts.push(["mobile", hasDc ? bytes * (1 - dcShare) : bytes]);
      if (hasDc) parts.push(["dc", hasMobile ? bytes * dcShare : bytes]);
      for (const [proxyType, partBytes] of parts) {
        const whole = Math.max(200, Math.round(partBytes));
        const requests = Math.max(1, Math.round(whole / bytesPerRequest[index]!));
        yield { day, domain: names[index]!, proxyType, bytes: whole, requests };
      }
    }
  }
}

/**
 * Writes the generated rows with the gateway's own upsert semantics (a repeated key adds up), in
 * batches of one statement each: one array parameter per column, so any batch size stays far
 * below the protocol's parameter limit. Returns the number of rows written.
 */
export async function insertGeneratedUsage(
  database: Database,
  options: UsageGeneratorOptions,
  onProgress?: (rows: number) => void,
): Promise<number> {
  const batchSize = options.batchSize ?? 20_000;
  let written = 0;
  let batch: GeneratedRow[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await database.query(
      `INSERT INTO usage_rollups (user_id, day, domain, proxy_type, bytes, requests)
       SELECT $1::uuid, v.day, v.domain, v.proxy_type, v.bytes, v.requests
         FROM unnest($2::date[], $3::text[], $4::text[], $5::bigint[], $6::bigint[])
              AS v(day, domain, proxy_type, bytes, requests)
       ON CONFLICT (user_id, day, domain, proxy_type, subuser_id) DO UPDATE
         SET bytes = usage_rollups.bytes + EXCLUDED.bytes,
             requests = usage_rollups.requests + EXCLUDED.requests`,
      [
        options.userId,
        batch.map((row) => row.day),
        batch.map((row) => row.domain),
        batch.map((row) => row.proxyType),
        batch.map((row) => row.bytes),
        batch.map((row) => row.requests),
      ],
    );
    written += batch.length;
    batch = [];
    onProgress?.(written);
  };
  for (const row of generateUsage(options)) {
    batch.push(row);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return written;
}
