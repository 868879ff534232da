import { randomUUID } from "node:crypto";
import type { Database } from "@bytetoll/db";
import type { Logger } from "pino";
import { LeaseOvershootError } from "../admit/account-balance.ts";
import type { AccountDirectory } from "../admit/accounts.ts";
import type { BalanceLeases } from "../admit/lease.ts";
import type { SubuserLeases } from "../admit/subuser-allowance.ts";
import type { GatewayMetrics } from "../base/metrics.ts";
import type { Tariff } from "../base/tariff.ts";
import type { Meter } from "../relay/meter.ts";
import { commitBatch, makeBatch, mergeInto, subuserBytes, type UsageBatch } from "./flush.ts";
import type { UsageJournal } from "./usage-journal.ts";

/**
 * Moves metered usage into the database: every tick takes what the meter holds as a new batch
 * and commits queued batches in order. A failed batch stays queued under its id and is retried
 * first, so nothing is dropped and nothing counts twice. With a journal, the usage of the batch
 * being filled is also appended to a local file every few milliseconds (under the id it will be
 * committed with), so a crash loses at most that interval.
 */
export class UsageFlusher {
  private readonly queue: UsageBatch[] = [];
  private running: Promise<void> | null = null;
  /** When the oldest queued (taken but uncommitted) batch was taken. */
  private oldestQueuedAt: number | null = null;
  /** The id the next new batch gets (the journal records pending usage under it). */
  private nextId = randomUUID();

  constructor(
    private readonly deps: {
      database: Database;
      meter: Meter;
      accounts: AccountDirectory;
      leases: BalanceLeases;
      subuserLeases: SubuserLeases;
      journal: UsageJournal | null;
      tariff: Tariff;
      metrics: GatewayMetrics;
      logger: Logger;
    },
  ) {
    if (deps.journal) {
      for (const batch of deps.journal.recovered()) {
        const recovered = makeBatch(batch.rows, deps.tariff, batch.id);
        recovered.attempted = true;
        recovered.recovered = true;
        this.queue.push(recovered);
      }
      if (this.queue.length > 0) this.oldestQueuedAt = Date.now();
    }
  }

  lagSeconds(): number {
    const oldest = this.oldestQueuedAt ?? this.deps.meter.oldestAt;
    return oldest === null ? 0 : (Date.now() - oldest) / 1000;
  }

  pendingBatches(): number {
    return this.queue.length;
  }

  /** The batch the meter's current rows will be committed in: the last queued one while it was
   * never sent (usage piles up there during an outage), otherwise a new one. */
  private openId(): string {
    const last = this.queue.at(-1);
    return last && !last.attempted ? last.id : this.nextId;
  }

  /** Appends what was metered since the last call to the journal (the journal timer). */
  journal(): void {
    const { journal, meter } = this.deps;
    if (!journal) return;
    meter.pollAll();
    this.journaling(() => journal.record(this.openId(), meter.pending()));
  }

  /** A journal that cannot be written (disk full, directory gone) costs crash safety, never the
   * flush: the usage is still in memory and goes to the database as usual. */
  private journaling(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.deps.logger.error({ err: error }, "usage journal write failed");
    }
  }

  /** One flush that includes everything metered before the call. A flush already in progress
   * took its rows before this call, so it is awaited first and a new one follows; callers that
   * arrive while that new one runs share it. Resolves true when the queue is empty. */
  async flush(): Promise<boolean> {
    if (this.running) await this.running.catch(() => undefined);
    if (!this.running) {
      this.running = this.run().finally(() => {
        this.running = null;
      });
    }
    await this.running;
    return this.queue.length === 0;
  }

  private takeIntoQueue(): void {
    const { meter, tariff } = this.deps;
    const takenAt = meter.oldestAt;
    this.journal();
    const rows = meter.take();
    if (rows.length === 0) return;
    const last = this.queue.at(-1);
    if (last && !last.attempted) {
      mergeInto(last, rows, tariff);
    } else {
      this.queue.push(makeBatch(rows, tariff, this.nextId));
      this.nextId = randomUUID();
    }
    this.oldestQueuedAt ??= takenAt ?? Date.now();
  }

  private async run(): Promise<void> {
    this.takeIntoQueue();
    try {
      await this.commitQueue();
    } finally {
      this.rewriteJournal();
    }
  }

  private async commitQueue(): Promise<void> {
    const { database, leases } = this.deps;
    while (this.queue.length > 0) {
      const batch = this.queue[0] as UsageBatch;
      if (!this.withinLeases(batch)) return;
      batch.attempted = true;
      const stopTimer = this.deps.metrics.flushDuration.startTimer();
      try {
        await commitBatch(database, batch, leases.instanceId);
        this.settle(batch);
        stopTimer();
        this.queue.shift();
      } catch (error) {
        this.deps.metrics.flushFailures.inc();
        this.deps.logger.error({ err: error, batchId: batch.id }, "usage flush failed; will retry");
        return;
      }
    }
    this.oldestQueuedAt = null;
    try {
      await leases.maintain(this.deps.accounts.known);
      await this.deps.subuserLeases.maintain(this.deps.accounts.knownSubusers);
    } catch (error) {
      this.deps.logger.warn({ err: error }, "could not renew or reconcile balance leases");
    }
  }

  /** Leaves exactly the uncommitted usage in the journal. */
  private rewriteJournal(): void {
    const { journal, meter } = this.deps;
    if (!journal) return;
    this.journal();
    const pending = { id: this.openId(), rows: [...meter.pending()] };
    this.journaling(() => journal.rewrite([...this.queue, pending]));
  }

  /**
   * A batch bills each account and sub-user at most what this instance was granted plus the
   * run-ahead it allowed (AccountBalance.commitBound). One that bills more is a bug between the
   * meter and the ledger: it is logged and counted, and not committed — it stays queued and in
   * the journal, so nothing is lost, and is checked again at the next flush (a grant meanwhile
   * may cover it). A recovered batch was leased by the previous run, whose grants this one
   * never saw: it is committed unchecked (decision 007 counts it outside the bound).
   */
  private withinLeases(batch: UsageBatch): boolean {
    if (batch.recovered) return true;
    const { accounts } = this.deps;
    try {
      for (const [userId, debit] of batch.debits) accounts.known.get(userId)?.assertCommit(debit);
      for (const [subuserId, bytes] of subuserBytes(batch.rows)) {
        accounts.knownSubusers.get(subuserId)?.assertCommit(bytes, subuserId);
      }
      return true;
    } catch (error) {
      if (!(error instanceof LeaseOvershootError)) throw error;
      this.deps.metrics.leaseOvershoots.inc();
      const { account, granted, debit, bound } = error;
      this.deps.logger.error(
        { batchId: batch.id, account, granted, debit, bound },
        "usage batch bills more than the lease held plus its bound; not committed",
      );
      return false;
    }
  }

  /** Committed: the batch's debit was released from this instance's leases (a recovered batch
   * released the previous run's; this run's accounts hold nothing of it). */
  private settle(batch: UsageBatch): void {
    if (batch.recovered) return;
    for (const [userId, estimate] of this.deps.tariff.estimates(batch.rows)) {
      this.deps.accounts.accountFor(userId).commit(batch.debits.get(userId) ?? 0, estimate);
    }
    for (const [subuserId, bytes] of subuserBytes(batch.rows)) {
      this.deps.accounts.knownSubusers.get(subuserId)?.commit(bytes, bytes);
    }
  }
}
