import { Refusal } from "@bytetoll/egress";

/**
 * Slowloris: a request head (with its Proxy-Authorization) trickling in byte by byte is cut at
 * the deadline however active the connection looks. One timer serves a connection's heads one
 * after another (re-armed only when it fires before the head in progress is due): setting and
 * clearing a timer for every request of a kept-alive connection cost more than parsing it.
 */
export class HeadDeadline {
  private startedAt: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The deadline passed: `onExpired` ran, the connection is being refused. */
  expired = false;

  constructor(
    private readonly ms: number,
    private readonly onExpired: () => void,
  ) {}

  /** A head began (the first one: the connection was accepted, at `at` when that was earlier);
   * a no-op while one runs. */
  readonly start = (at?: number): void => {
    if (this.startedAt !== null) return;
    this.startedAt = at ?? Date.now();
    this.timer ??= setTimeout(this.check, Math.max(0, this.startedAt + this.ms - Date.now()));
  };

  /** The head in progress arrived whole. */
  stop(): void {
    this.startedAt = null;
  }

  /** The connection closed. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private readonly check = (): void => {
    this.timer = null;
    if (this.startedAt === null) return;
    const left = this.startedAt + this.ms - Date.now();
    if (left > 0) {
      this.timer = setTimeout(this.check, left);
      return;
    }
    this.expired = true;
    this.onExpired();
  };
}

/** What a client whose request head did not arrive in time is told. */
export function headTimeoutRefusal(ms: number): Refusal {
  return new Refusal("request_timeout", `The request head did not arrive within ${ms} ms`);
}
