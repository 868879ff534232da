import type { Database } from "@bytetoll/db";
import type { Logger } from "pino";
import type { AccountDirectory } from "./accounts.ts";
import { commitBatch, makeBatch, mergeInto, type Prices, type UsageBatch } from "./flush.ts";
import { enforceBalance, type Meter, type ProxyType } from "./meter.ts";
import type { GatewayMetrics } from "./metrics.ts";

/**
 * Moves metered usage into the database: every tick takes what the meter holds as a new batch
 * and commits queued batches in order. A failed batch stays queued under its id and is retried
 * first, so nothing is dropped and nothing counts twice.
 */
export class UsageFlusher {
  private readonly queue: UsageBatch[] = [];
  private running: Promise<void> | null = null;
  /** When the oldest queued (taken but uncommitted) batch was taken. */
  private oldestQueuedAt: number | null = null;

  constructor(
    private readonly deps: {
      database: Database;
      meter: Meter;
      accounts: AccountDirectory;
      prices: Prices;
      ratio: Record<ProxyType, number>;
      metrics: GatewayMetrics;
      logger: Logger;
    },
  ) {}

  lagSeconds(): number {
    const oldest = this.oldestQueuedAt ?? this.deps.meter.oldestAt;
    return oldest === null ? 0 : (Date.now() - oldest) / 1000;
  }

  pendingBatches(): number {
    return this.queue.length;
  }

  /** One flush; concurrent calls share the one in progress. Resolves true when the queue is empty. */
  async flush(): Promise<boolean> {
    if (!this.running) {
      this.running = this.run().finally(() => {
        this.running = null;
      });
    }
    await this.running;
    return this.queue.length === 0;
  }

  private async run(): Promise<void> {
    const { meter, prices } = this.deps;
    const takenAt = meter.oldestAt;
    const rows = meter.take();
    if (rows.length > 0) {
      const last = this.queue.at(-1);
      if (last && !last.attempted) mergeInto(last, rows, prices);
      else this.queue.push(makeBatch(rows, prices));
      this.oldestQueuedAt ??= takenAt ?? Date.now();
    }
    while (this.queue.length > 0) {
      const batch = this.queue[0] as UsageBatch;
      batch.attempted = true;
      const stopTimer = this.deps.metrics.flushDuration.startTimer();
      try {
        const balances = await commitBatch(this.deps.database, batch);
        stopTimer();
        this.queue.shift();
        this.settle(batch, balances);
      } catch (error) {
        this.deps.metrics.flushFailures.inc();
        this.deps.logger.error({ err: error, batchId: batch.id }, "usage flush failed; will retry");
        return;
      }
    }
    this.oldestQueuedAt = null;
    try {
      for (const account of await this.deps.accounts.refreshLiveBalances()) enforceBalance(account);
    } catch (error) {
      this.deps.logger.warn({ err: error }, "could not refresh balances of live connections");
    }
  }

  /** Committed: the batch's debit is now inside the balance the database returned. */
  private settle(batch: UsageBatch, balances: Map<string, number> | null): void {
    const committed = new Map<string, number>();
    for (const row of batch.rows) {
      committed.set(
        row.userId,
        (committed.get(row.userId) ?? 0) + row.bytes * this.deps.ratio[row.proxyType],
      );
    }
    for (const [userId, debit] of committed) {
      const account = this.deps.accounts.accountFor(userId);
      account.uncommitted = Math.max(0, account.uncommitted - debit);
      account.generation += 1;
      const balance = balances?.get(userId);
      if (balance === undefined) {
        account.balanceReadAt = 0;
      } else {
        account.balance = balance;
        account.balanceReadAt = Date.now();
      }
      enforceBalance(account);
    }
  }
}
