import { CONNECT_MS_BOUNDS, type ExitLedger, type UpstreamSpec } from "@bytetoll/egress";

/** An exit's ledger and its pool: what the usage rows of its traffic carry. */
export interface ExitBooking extends ExitLedger {
  pool: string;
}

/** When an exit is taken out of its pool and how it comes back (decision 018). */
export interface HealthSettings {
  /** Connect attempts the exit itself failed in a row before it is marked down. */
  downAfterFailures: number;
  /** The first retry of a down exit comes this long after it was marked down... */
  firstRetryMs: number;
  /** ...each failed retry doubles the wait, up to this. */
  maxRetryMs: number;
}

/** One connection to the exit itself (TCP, and TLS for an https exit), closed at once: resolves
 * when it can be reached. */
export type ReachExit = (spec: UpstreamSpec) => Promise<void>;

export const defaultHealthSettings: HealthSettings = {
  downAfterFailures: 3,
  firstRetryMs: 5_000,
  maxRetryMs: 60_000,
};

/** One exit's figures for one UTC minute on this instance. */
export interface MinuteFigures {
  minute: number;
  attempts: number;
  failures: number;
  connectMsSum: number;
  connectMsBuckets: number[];
  bytes: number;
}

function bucketOf(ms: number): number {
  const index = CONNECT_MS_BOUNDS.findIndex((bound) => ms <= bound);
  return index === -1 ? CONNECT_MS_BOUNDS.length : index;
}

/** What a dial tells the exit it went through. */
export interface DialObserver {
  connected(connectMs: number): void;
  /** `exitFault`: the exit itself failed (unreachable, TLS, handshake, timeout), not the target
   * behind it. */
  failed(exitFault: boolean): void;
}

/**
 * One upstream exit of one pool on this instance: whether it is up, and what it did this minute
 * (connect attempts, its own failures, connect times) plus the bytes relayed through it. An exit
 * whose own connects fail `downAfterFailures` times in a row is marked down and skipped by the
 * pool. Once its back-off is over, the next pick starts one retry in the background (a
 * connection to the exit itself, never a customer's request): reached, the exit is up again;
 * not reached, the back-off doubles. A customer connect that gets through marks it up too.
 */
export class Exit implements DialObserver {
  /** Metered bytes relayed through the exit since start (the flows add to it). */
  bytes = 0;
  private bytesFolded = 0;
  private failuresInRow = 0;
  private downFlag = false;
  private retryAt = 0;
  private retryMs: number;
  /** When it last came back up (0: never went down). */
  private upSince = 0;
  private probing = false;
  private readonly minutes = new Map<number, MinuteFigures>();

  constructor(
    readonly pool: string,
    readonly spec: UpstreamSpec,
    private readonly settings: HealthSettings = defaultHealthSettings,
    private readonly onChange: (exit: Exit) => void = () => {},
    private readonly reach: ReachExit = async () => {},
  ) {
    this.retryMs = settings.firstRetryMs;
  }

  get id(): string {
    return this.spec.id;
  }

  /** What its bytes are booked under: a console exit's id, name and cost; an environment exit's
   * id, at no cost. */
  get booking(): ExitBooking {
    // A tunnel opened before the exit was changed goes on through it: its bytes from now on are
    // booked at the changed exit's cost.
    let current: Exit = this;
    while (current.successor) current = current.successor;
    const { spec } = current;
    // Made once per spec it resolves to (every flow through the exit asks).
    if (this.booked?.spec !== spec) {
      const ledger: ExitLedger = spec.ledger ?? { key: spec.id, name: spec.id, costPerGbMicros: 0 };
      this.booked = { spec, booking: { ...ledger, pool: this.pool } };
    }
    return this.booked.booking;
  }

  private booked: { spec: UpstreamSpec; booking: ExitBooking } | null = null;

  /** The exit that replaced this one when the console changed it (same ledger key). */
  successor: Exit | null = null;

  get down(): boolean {
    return this.downFlag;
  }

  /** Down, its back-off over, and no retry under way: starts one in the background. */
  retryIfDue(now: number): void {
    if (!this.downFlag || this.probing || now < this.retryAt) return;
    this.probing = true;
    this.reach(this.spec).then(
      () => this.reached(),
      () => {
        this.probing = false;
        this.retryMs = Math.min(this.retryMs * 2, this.settings.maxRetryMs);
        this.retryAt = Date.now() + this.retryMs;
      },
    );
  }

  connected(connectMs: number): void {
    const figures = this.figures();
    figures.attempts += 1;
    figures.connectMsSum += connectMs;
    figures.connectMsBuckets[bucketOf(connectMs)] = (figures.connectMsBuckets[bucketOf(connectMs)] ?? 0) + 1;
    this.reached();
  }

  failed(exitFault: boolean): void {
    const figures = this.figures();
    figures.attempts += 1;
    if (!exitFault) {
      // The exit answered; the target behind it did not.
      this.reached();
      return;
    }
    figures.failures += 1;
    this.failuresInRow += 1;
    if (!this.downFlag && this.failuresInRow >= this.settings.downAfterFailures) {
      const now = Date.now();
      this.downFlag = true;
      // An exit that fails again soon after coming back (one that flaps: reachable, yet failing
      // customers' connects) keeps doubling its back-off instead of starting again at the first.
      const flapping = this.upSince > 0 && now - this.upSince < this.settings.maxRetryMs;
      this.retryMs = flapping
        ? Math.min(this.retryMs * 2, this.settings.maxRetryMs)
        : this.settings.firstRetryMs;
      this.retryAt = now + this.retryMs;
      this.onChange(this);
    }
  }

  private reached(): void {
    this.failuresInRow = 0;
    this.probing = false;
    if (!this.downFlag) return;
    this.downFlag = false;
    this.upSince = Date.now();
    this.onChange(this);
  }

  private figures(now = Date.now()): MinuteFigures {
    const minute = now - (now % 60_000);
    let figures = this.minutes.get(minute);
    if (!figures) {
      figures = {
        minute,
        attempts: 0,
        failures: 0,
        connectMsSum: 0,
        connectMsBuckets: new Array(CONNECT_MS_BOUNDS.length + 1).fill(0),
        bytes: 0,
      };
      this.minutes.set(minute, figures);
    }
    return figures;
  }

  /** The figures of every minute not yet saved for good, the bytes relayed since the last call
   * added to the current minute. */
  openMinutes(now = Date.now()): MinuteFigures[] {
    // Unsaved for an hour (the database is down): the console shows only the last hour anyway.
    for (const minute of this.minutes.keys()) if (minute < now - 3_600_000) this.minutes.delete(minute);
    const delta = this.bytes - this.bytesFolded;
    if (delta > 0) {
      this.figures(now).bytes += delta;
      this.bytesFolded = this.bytes;
    }
    return [...this.minutes.values()];
  }

  /** The minutes before `now`'s were saved: they will not change again. */
  saved(now = Date.now()): void {
    const current = now - (now % 60_000);
    for (const minute of this.minutes.keys()) if (minute < current) this.minutes.delete(minute);
  }
}
