import type { Database } from "@bytetoll/db";
import { DialFailure, Refusal } from "@bytetoll/egress";
import type { Logger } from "pino";
import type { ConnectionEnd, TunnelContext } from "./tunnel-context.ts";
import { TunnelEnd } from "./tunnel-end.ts";

export type { ConnectionEnd };

/** Statuses a site answers a client it refuses with. */
const BLOCK_STATUSES = new Set([401, 403, 407, 429, 503]);
/** Counters kept between flushes; beyond this many (domain, type, minute) keys new ones are
 * dropped, so a long database outage cannot grow memory without bound. */
const MAX_KEYS = 20_000;
/** Keys one account may add between flushes: one customer's traffic to thousands of names cannot
 * crowd everyone else's evidence out of the map. */
const MAX_KEYS_PER_ACCOUNT = 500;
const FLUSH_INTERVAL_MS = 5_000;

interface Counts {
  domain: string;
  proxyType: string;
  minute: string;
  /** The user whose traffic it was: the learner counts a failure toward a shared verdict only
   * when several accounts saw it (decision 025). */
  account: string;
  connections: number;
  dial_failure: number;
  reset: number;
  tls_cut: number;
  blocked_status: number;
}

const keyOf = (counts: Pick<Counts, "minute" | "proxyType" | "account" | "domain">) =>
  `${counts.minute} ${counts.proxyType} ${counts.account} ${counts.domain}`;

/**
 * Per (domain, proxy type, UTC minute, account): how many connections (tunnels) and plain
 * requests ended, and how many of them failed on the target's side and how — the evidence the
 * learner compares between datacenter and mobile. Counted in memory, added to domain_outcomes
 * every few seconds.
 */
export class ConnectionOutcomes {
  private counts = new Map<string, Counts>();
  /** The counters recorded to last: a client's connections mostly go to one site, so the next
   * end usually counts there too, found without building its key. */
  private last: Counts | null = null;
  /** Keys each account added since the last flush. */
  private keysByAccount = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  /** The last minute asked for, and its text: formatting a date for every request cost more than
   * the rest of the recording. */
  private minuteStart = Number.NaN;
  private minuteText = "";

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
  ) {}

  record(tunnel: TunnelContext, end: ConnectionEnd): void {
    tunnel.end = end;
    const { target, proxyType, account: balance } = tunnel;
    const minute = this.minuteOf(Date.now());
    const account = balance.userId;
    const last = this.last;
    let counts =
      last !== null &&
      last.minute === minute &&
      last.account === account &&
      last.domain === target.domain &&
      last.proxyType === proxyType
        ? last
        : this.counts.get(keyOf({ minute, proxyType, account, domain: target.domain }));
    if (!counts) {
      const added = this.keysByAccount.get(account) ?? 0;
      if (this.counts.size >= MAX_KEYS || added >= MAX_KEYS_PER_ACCOUNT) return;
      this.keysByAccount.set(account, added + 1);
      counts = {
        domain: target.domain,
        proxyType,
        minute,
        account,
        connections: 0,
        dial_failure: 0,
        reset: 0,
        tls_cut: 0,
        blocked_status: 0,
      };
      this.counts.set(keyOf(counts), counts);
    }
    this.last = counts;
    counts.connections += 1;
    if (end !== "ok") counts[end] += 1;
  }

  /** A plain request's response arrived. */
  response(tunnel: TunnelContext, status: number): void {
    this.record(tunnel, BLOCK_STATUSES.has(status) ? "blocked_status" : "ok");
  }

  /** A plain request or a tunnel failed before its answer: its dial (unless the exit itself
   * failed, which says nothing about the site), or the target hung up or broke its answer. */
  failed(tunnel: TunnelContext, error: unknown): void {
    if (error instanceof DialFailure) {
      if (!error.exitsFault) this.record(tunnel, "dial_failure");
      return;
    }
    if (error instanceof Refusal && error.code === "upstream_failed") this.record(tunnel, "reset");
  }

  /** A tunnel whose target socket was dialled: its end is recorded at close. Only the target's doing
   * counts against the site: a reset or a hang-up before the client finished its side. A tunnel
   * the client closed or reset first ended as the client wished, whatever the target sent (a
   * client closing after one byte is not a handshake the site cut). */
  tunnelOpened(tunnel: TunnelContext): void {
    new TunnelEnd(tunnel, (end) => this.record(tunnel, end));
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Adds the counters to domain_outcomes in one statement; on failure they are kept for the next. */
  async flush(): Promise<void> {
    if (this.counts.size === 0) return;
    const batch = [...this.counts.values()];
    this.counts = new Map();
    this.last = null;
    this.keysByAccount = new Map();
    const column = <K extends keyof Counts>(key: K) => batch.map((counts) => counts[key]);
    try {
      await this.database.query(
        `INSERT INTO domain_outcomes AS o (domain, proxy_type, minute, connections, dial_failures, resets, tls_cut, blocked_statuses, account)
         SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::text[])
         ON CONFLICT (domain, minute, proxy_type, account) DO UPDATE SET
           connections = o.connections + EXCLUDED.connections,
           dial_failures = o.dial_failures + EXCLUDED.dial_failures,
           resets = o.resets + EXCLUDED.resets,
           tls_cut = o.tls_cut + EXCLUDED.tls_cut,
           blocked_statuses = o.blocked_statuses + EXCLUDED.blocked_statuses`,
        [
          column("domain"),
          column("proxyType"),
          column("minute"),
          column("connections"),
          column("dial_failure"),
          column("reset"),
          column("tls_cut"),
          column("blocked_status"),
          column("account"),
        ],
      );
    } catch (error) {
      this.logger.warn({ err: error }, "connection outcomes not saved; kept for the next flush");
      for (const counts of batch) this.merge(counts);
    }
  }

  private minuteOf(now: number): string {
    const start = now - (now % 60_000);
    if (start !== this.minuteStart) {
      this.minuteText = new Date(start).toISOString();
      this.minuteStart = start;
    }
    return this.minuteText;
  }

  private merge(counts: Counts): void {
    const key = keyOf(counts);
    const current = this.counts.get(key);
    if (!current) {
      if (this.counts.size < MAX_KEYS) this.counts.set(key, counts);
      return;
    }
    for (const field of ["connections", "dial_failure", "reset", "tls_cut", "blocked_status"] as const)
      current[field] += counts[field];
  }
}
