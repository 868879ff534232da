import type { Refusal } from "@bytetoll/egress";
import type { AccountBalance } from "../admit/account-balance.ts";
import type { Admitted } from "../admit/admission.ts";
import { SubuserAllowance } from "../admit/subuser-allowance.ts";
import type { ProxyType } from "../base/tariff.ts";
import type { TargetSocket, TargetStream } from "../dial/dial.ts";
import type { ExitBooking } from "../route/upstream-health.ts";

export interface UsageRow {
  userId: string;
  /** The sub-user whose credentials relayed the bytes (null: the account's own). */
  subuserId: string | null;
  day: string;
  domain: string;
  proxyType: ProxyType;
  bytes: number;
  requests: number;
  /** The exit the bytes left through, with its cost then (absent: none known, e.g. rows read
   * back from a journal written before exits were booked). */
  exit?: ExitBooking | null;
}

/** One exit the meter books traffic under: its byte count grows with the flows through it. */
export interface MeteredExit {
  bytes: number;
  readonly booking: ExitBooking;
}

/** An exit booking as part of a row's key: its key and the cost in force (a changed cost starts
 * a new row, so bytes are never booked at a price that was not in force when they moved). */
export function exitKey(exit: ExitBooking | null | undefined): string {
  return exit ? `${exit.key}\u0000${exit.costPerGbMicros}` : "";
}

function utcDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export interface MeterOptions {
  /** Told when an account has spent more than half of its lease (renewal, enforcement). */
  onLowLease: (account: AccountBalance) => void;
}

/**
 * Collects metered bytes per (user, sub-user, UTC day, domain, proxy type) until the flusher takes them.
 * A flow is one plain-HTTP request or one CONNECT tunnel; it reads its target socket's byte
 * counters, which count exactly what the target sent and received (cleartext, headers
 * included, without an upstream proxy's handshake and without the client-side TLS of 8443).
 */
export class Meter {
  private rows = new Map<string, UsageRow>();
  /** The row asked for last: a client's connections mostly go to one site, so the next flow
   * usually bills the same row, found without building its key. */
  private lastRow: UsageRow | null = null;
  /** Changes whenever `rows` is handed over, so flows re-fetch their row objects. */
  epoch = 0;
  private day = utcDay();
  /** When the oldest byte in `rows` was recorded (for the flush-lag metric). */
  oldestAt: number | null = null;
  readonly flows = new Set<Flow>();
  /** Metered bytes since start (the heartbeat's bytes per second). */
  relayed = 0;
  /** Bytes since the metrics were last scraped. */
  unscraped: Record<ProxyType, number> = { mobile: 0, dc: 0 };

  constructor(readonly options: MeterOptions) {}

  takeUnscraped(): Record<ProxyType, number> {
    const taken = this.unscraped;
    this.unscraped = { mobile: 0, dc: 0 };
    return taken;
  }

  row(
    userId: string,
    subuserId: string | null,
    domain: string,
    proxyType: ProxyType,
    exit: ExitBooking | null = null,
  ): UsageRow {
    const last = this.lastRow;
    if (
      last !== null &&
      last.userId === userId &&
      last.subuserId === subuserId &&
      last.domain === domain &&
      last.proxyType === proxyType &&
      last.exit === exit
    )
      return last;
    const key = `${userId}\u0000${subuserId ?? ""}\u0000${this.day}\u0000${domain}\u0000${proxyType}\u0000${exitKey(exit)}`;
    let row = this.rows.get(key);
    if (!row) {
      row = { userId, subuserId, day: this.day, domain, proxyType, bytes: 0, requests: 0, exit };
      this.rows.set(key, row);
      this.oldestAt ??= Date.now();
    }
    this.lastRow = row;
    return row;
  }

  /** The flow of one admitted tunnel or request: billed to its account, under its target's
   * domain, its proxy type and its exit (whose byte count grows with the flow). */
  open(
    {
      account,
      target,
      proxyType,
      exit,
    }: Pick<Admitted, "account" | "target" | "proxyType"> & {
      exit: MeteredExit | null;
    },
    abort: () => void,
  ): Flow {
    const flow = new Flow(this, account, target.domain, proxyType, exit, abort);
    this.flows.add(flow);
    account.addFlow(flow);
    flow.row().requests += 1;
    return flow;
  }

  /** Moves every live flow's bytes since its last read into the usage rows. */
  pollAll(): void {
    for (const flow of this.flows) flow.poll();
  }

  /** The rows metered since the last take (live objects: they keep counting). */
  pending(): IterableIterator<UsageRow> {
    return this.rows.values();
  }

  /** Reads every live flow and hands over everything metered so far. */
  take(): UsageRow[] {
    this.pollAll();
    const taken = [...this.rows.values()].filter((row) => row.bytes > 0 || row.requests > 0);
    this.rows = new Map();
    this.lastRow = null;
    this.epoch += 1;
    this.day = utcDay();
    this.oldestAt = null;
    return taken;
  }
}

export class Flow {
  private target: TargetSocket<TargetStream> | null = null;
  private currentRow: UsageRow | null = null;
  private rowEpoch = -1;
  private finished = false;
  /** Why the flow was cut when its account ran dry (what a request not yet answered is told). */
  cutCause: Refusal | null = null;

  constructor(
    private readonly meter: Meter,
    readonly account: AccountBalance,
    readonly domain: string,
    readonly proxyType: ProxyType,
    private readonly exit: MeteredExit | null,
    readonly abort: () => void,
  ) {}

  row(): UsageRow {
    if (this.rowEpoch !== this.meter.epoch || !this.currentRow) {
      const subuserId = this.account instanceof SubuserAllowance ? this.account.subuserId : null;
      this.currentRow = this.meter.row(
        this.account.userId,
        subuserId,
        this.domain,
        this.proxyType,
        this.exit?.booking ?? null,
      );
      this.rowEpoch = this.meter.epoch;
    }
    return this.currentRow;
  }

  get currentSocket(): TargetStream | null {
    return this.target?.socket ?? null;
  }

  /** The target socket this flow's bytes go through (set once it is known). */
  attach(target: TargetSocket<TargetStream>): void {
    if (this.finished) return;
    this.target = target;
  }

  /** Moves the bytes since the last poll into the usage rows; called on every chunk from the
   * target (a spliced tunnel: once 64 KiB went unreported or a second passed, and at its end), so
   * an account whose lease is spent is cut within that, and by the flusher. */
  poll(): void {
    const delta = this.target?.takeUnbilled() ?? 0;
    if (delta <= 0) return;
    this.row().bytes += delta;
    this.account.charge(delta, this.proxyType);
    this.meter.unscraped[this.proxyType] += delta;
    this.meter.relayed += delta;
    if (this.exit) this.exit.bytes += delta;
    if (this.account.low) this.meter.options.onLowLease(this.account);
    // A sub-user's bytes spend its owner's lease too.
    if (this.account instanceof SubuserAllowance && this.account.owner.low)
      this.meter.options.onLowLease(this.account.owner);
  }

  finish(): void {
    if (this.finished) return;
    this.poll();
    this.finished = true;
    this.target = null;
    this.meter.flows.delete(this);
    this.account.removeFlow(this);
  }
}
