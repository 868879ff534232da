import type { ClientSocket } from "../base/native-socket.ts";
import type { ProxyType, Tariff } from "../base/tariff.ts";

/** A live connection billed to an account: closed once the account has nothing left to relay with. */
export interface LiveFlow {
  abort(): void;
}

/** How large a lease renewal may ask for. */
export interface LeaseBounds {
  minBytes: number;
  maxBytes: number;
}

/** Reserves up to `want` bytes of the shared balance for this instance; resolves the bytes granted. */
export type GrantLease = (want: number) => Promise<number>;

/** A renewal asks for what lasts this long at the rate the account spends (below the cap, about
 * two renewals a second per account and instance). */
const LEASE_TARGET_MS = 500;
/** After a failed renewal (database unreachable), the next try waits this long. */
const RETRY_AFTER_FAILURE_MS = 1_000;
/** How long a slow renewal is waited for past the usual run-ahead, when the last grant was given
 * in full (the balance had at least that much: the account is not running dry). */
export const RENEWAL_GRACE_MS = 500;
/** The most one connection moves in one direction in one read: the splice relay's pipe (a
 * stream's read is at most 64 KiB). A connection is cut within one read each way. */
export const READ_BYTES_MAX = 256 * 1024;
/** What the splice relay may have moved, besides that read each way, before it tells the meter:
 * it reports once this much went unreported (REPORT_BYTES in packages/splice/src/splice.c). */
export const UNREPORTED_BYTES_MAX = 64 * 1024;
/** The most one connection moves before the meter sees it: what may be billed past a cut. */
export const CONNECTION_SLACK_BYTES = 2 * READ_BYTES_MAX + UNREPORTED_BYTES_MAX;

/** A batch would bill an account (or a sub-user's allowance) more than this instance was granted
 * plus the run-ahead it allowed: a bug somewhere between the meter and the ledger. The batch is
 * not committed. */
export class LeaseOvershootError extends Error {
  constructor(
    readonly account: string,
    readonly granted: number,
    readonly debit: number,
    readonly bound: number,
  ) {
    super(`a debit of ${debit} bytes exceeds the lease held (${granted}) by more than the bound (${bound})`);
    this.name = "LeaseOvershootError";
  }
}

/**
 * One paying user's balance as this gateway instance sees it: the lease it holds of the shared
 * balance (decision 007), the debit of bytes metered here but not committed yet, and the live
 * connections to close when nothing is left. The meter charges it, the flusher commits to it,
 * the lease manager renews and adopts leases through it; nobody else changes its state.
 */
export class AccountBalance {
  private readonly flows = new Set<LiveFlow>();
  /** Bytes this instance holds in balance_leases for the account (debits not yet released). */
  private granted = 0;
  /** Debit of bytes metered here but not yet committed (unflushed or in flight). */
  private uncommitted = 0;
  /** What the last renewal asked for; the next one is due when less than half is left. */
  private size = 0;
  private renewing: Promise<void> | null = null;
  /** How far past its lease the renewal in flight lets the account run (0: none in flight). */
  private renewalRunAhead = 0;
  /** How far past its lease the account may have run since it last had nothing relayed past it:
   * the largest run-ahead of the renewals in that time, plus bytes relayed under a lease that
   * was lost meanwhile (reclaimed, or given back because the source could no longer pay). */
  private runAheadSinceCovered = 0;
  /** The most live connections in that time (each may relay one read each way past a cut). */
  private flowsSinceCovered = 0;
  /** Bytes the last renewal granted: how far a renewal in flight lets the account run ahead. */
  private lastGrant = 0;
  /** The last renewal got all it asked for. */
  private lastGrantFull = false;
  private renewStartedAt = 0;
  private grantedAt = 0;
  private retryAt = 0;
  /** Last admission of a connection, for giving an idle lease back. */
  private activeAt = 0;
  /** Client connections that presented this account's credentials (tunnels, kept-alive
   * sessions between requests): closed when the account is disabled. */
  private readonly clients = new Set<ClientSocket>();
  private disabledNow = false;
  /** Sequence number of the database read that set `disabled` (a later read wins). */
  private disabledReadSeq = -1;

  constructor(
    readonly userId: string,
    private readonly tariff: Tariff,
  ) {}

  /** Whether a slow renewal after a full grant is waited for past the last grant (exhausted()).
   * A balance's bound allows it (instances × the largest lease); a sub-user's limit is stated as
   * instances × one grant, so its allowance turns it off. */
  protected get renewalGrace(): boolean {
    return true;
  }

  /** Bytes the account may still relay here before it needs more lease. */
  get remaining(): number {
    return this.granted - this.uncommitted;
  }

  /** Less than half of the last lease is left: time to renew. */
  get low(): boolean {
    return this.remaining < this.size / 2;
  }

  /** Relayed bytes, at the live estimate of the tariff. */
  charge(bytes: number, proxyType: ProxyType): void {
    this.uncommitted += this.tariff.estimate(bytes, proxyType);
  }

  /**
   * How far past the lease it holds this instance may bill the account in one commit: the
   * run-ahead allowed since it last had nothing relayed past its lease, one read each way per
   * connection it had open meanwhile (the read that crosses a limit is relayed before the cut),
   * and 1 byte (a batch's datacenter debit is rounded up to a whole byte).
   */
  get commitBound(): number {
    return this.runAheadSinceCovered + this.flowsSinceCovered * CONNECTION_SLACK_BYTES + 1;
  }

  /** Refuses a debit past the lease held plus `commitBound`: checked before the batch's
   * transaction, so a refused batch changes nothing and stays queued (and journaled). */
  assertCommit(debit: number, account: string = this.userId): void {
    const bound = this.commitBound;
    if (!(debit <= this.granted + bound)) throw new LeaseOvershootError(account, this.granted, debit, bound);
  }

  /** A batch was committed (after `assertCommit`): its ledger debit released the lease, and what
   * the meter had estimated for the same bytes is no longer uncommitted. The part of the debit
   * past the lease is the run-ahead `assertCommit` bounded: the lease row released what it held
   * (lease.ts releaseLease), and so does this. */
  commit(debit: number, estimate: number): void {
    this.granted -= Math.min(this.granted, debit);
    this.uncommitted -= estimate;
    this.coveredCheck();
  }

  /** Once the lease covers every byte not yet committed, no earlier run-ahead can reach a
   * commit any more: the window of `commitBound` starts again. */
  private coveredCheck(): void {
    if (this.remaining < 0) return;
    this.runAheadSinceCovered = this.renewalRunAhead;
    this.flowsSinceCovered = this.flows.size;
  }

  /**
   * Nothing left to relay with. While a renewal is on its way the account may run ahead of it by
   * what the last one granted; past that, a renewal of an account whose last grant was given in
   * full is still waited for up to RENEWAL_GRACE_MS and up to what it asked for (at most
   * leaseMaxBytes): a database slower than usual for a moment does not cut a paying customer's
   * fast transfer (an account running dry got less than it asked for, and has no such grace).
   */
  exhausted(now = Date.now()): boolean {
    const remaining = this.remaining;
    if (remaining > 0) return false;
    if (!this.renewing) return true;
    if (remaining > -this.lastGrant) return false;
    return !(
      this.lastGrantFull &&
      remaining > -this.renewalRunAhead &&
      now - this.renewStartedAt < RENEWAL_GRACE_MS
    );
  }

  /** Closes every live connection once the account is exhausted. */
  enforce(): void {
    if (!this.exhausted()) return;
    for (const flow of [...this.flows]) flow.abort();
  }

  /** The operator disabled the account (users.disabled_at): it is refused, and its connections
   * are closed. */
  get disabled(): boolean {
    return this.disabledNow;
  }

  /** What a database read that started as number `readSeq` says; a read older than the one that
   * set the current state is ignored. Disabling closes every connection of the account: its
   * flows (billed up to the cut) and its idle client connections. */
  setDisabled(disabled: boolean, readSeq: number): void {
    if (readSeq < this.disabledReadSeq) return;
    this.disabledReadSeq = readSeq;
    this.disabledNow = disabled;
    if (!disabled) return;
    for (const flow of [...this.flows]) flow.abort();
    for (const client of [...this.clients]) client.destroy();
  }

  /** A client connection presented this account's credentials. */
  holdClient(client: ClientSocket): void {
    // Disabled while its request was being admitted.
    if (this.disabledNow) queueMicrotask(() => client.destroy());
    if (this.clients.has(client)) return;
    this.clients.add(client);
    client.once("close", () => this.clients.delete(client));
  }

  /** A live connection now bills this account. */
  addFlow(flow: LiveFlow): void {
    // Disabled while its connection was being made: cut once the caller holds the flow.
    if (this.disabledNow) queueMicrotask(() => flow.abort());
    this.flows.add(flow);
    if (this.flows.size > this.flowsSinceCovered) this.flowsSinceCovered = this.flows.size;
  }

  removeFlow(flow: LiveFlow): void {
    this.flows.delete(flow);
  }

  /** A connection was admitted. */
  touch(): void {
    this.activeAt = Date.now();
  }

  /** No connection for `idleMs`: the lease may go back to the shared balance. */
  idle(idleMs: number, now = Date.now()): boolean {
    return this.flows.size === 0 && this.activeAt + idleMs <= now;
  }

  /** What the database says this instance holds for the account (0: nothing). Bytes already
   * relayed under a part of the lease that is gone (reclaimed by another instance after a long
   * outage, or given back because the source can no longer pay) still reach the ledger: they
   * join the run-ahead the next commits may bill past the lease. */
  adopt(heldBytes: number): void {
    const relayedUnderLease = Math.min(this.granted, Math.max(0, this.uncommitted));
    if (heldBytes < relayedUnderLease) this.runAheadSinceCovered += relayedUnderLease - heldBytes;
    this.granted = heldBytes;
  }

  /** Low, no renewal on its way, and not waiting out a failed one. */
  dueForRenewal(): boolean {
    return !this.renewing && this.low && Date.now() >= this.retryAt;
  }

  /** Asks for more lease (joining a renewal already on its way); the account's connections are
   * closed afterwards if it is still exhausted. Rejects while a failed renewal is waited out. */
  renew(grant: GrantLease, bounds: LeaseBounds): Promise<void> {
    if (this.renewing) return this.renewing;
    if (Date.now() < this.retryAt) {
      return Promise.reject(new Error("the database is unreachable: no lease can be granted right now"));
    }
    const want = this.nextSize(bounds);
    this.renewStartedAt = Date.now();
    // What exhausted() lets the account run past its lease while this renewal is on its way.
    this.renewalRunAhead =
      this.lastGrantFull && this.renewalGrace ? Math.max(this.lastGrant, want) : this.lastGrant;
    this.runAheadSinceCovered = Math.max(this.runAheadSinceCovered, this.renewalRunAhead);
    const renewing = grant(want)
      .then((granted) => {
        this.granted += granted;
        this.lastGrant = granted;
        this.lastGrantFull = granted >= want;
        this.grantedAt = Date.now();
      })
      .catch((error: unknown) => {
        this.retryAt = Date.now() + RETRY_AFTER_FAILURE_MS;
        throw error;
      })
      .finally(() => {
        this.renewing = null;
        this.renewalRunAhead = 0;
        this.coveredCheck();
        // Still short after a grant while the source had something to give: ask again at once
        // rather than cut connections that the source can still pay for. The run-ahead stays
        // bounded by the newest grant (exhausted()); a source with nothing left grants 0.
        if (this.remaining <= 0 && this.lastGrant > 0 && Date.now() >= this.retryAt) {
          this.renew(grant, bounds).catch(() => {});
        }
        this.enforce();
      });
    this.renewing = renewing;
    return renewing;
  }

  /** What lasts about LEASE_TARGET_MS at the rate the last grant was spent, within bounds; it
   * shrinks by half at most per renewal, so a pause does not start the next burst small. */
  private nextSize(bounds: LeaseBounds): number {
    const sinceLast = Math.max(1, Date.now() - this.grantedAt);
    const perTarget = this.size === 0 ? 0 : (this.lastGrant / sinceLast) * LEASE_TARGET_MS;
    const wanted = Math.max(bounds.minBytes, perTarget, this.size / 2);
    this.size = Math.round(Math.min(bounds.maxBytes, wanted));
    return this.size;
  }
}
