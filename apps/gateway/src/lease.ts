import type { Database, SqlExecutor } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { AccountBalance, LeaseBounds } from "./account-balance.ts";

/** The first lease of an account (or its whole balance when that is less). */
export const LEASE_MIN_BYTES = 4 * 1024 * 1024;
/** The largest lease: at ~1.5 GB/s one instance renews ~6 times a second, and what an account
 * can overdraw stays below instances × this. */
export const LEASE_MAX_BYTES = 256 * 1024 * 1024;
/** A lease its instance stopped renewing (crash, kill -9, long outage) is reclaimed after this. */
export const LEASE_TTL_SECONDS = 120;
/** How often an instance looks for expired leases of other instances. */
const SWEEP_INTERVAL_MS = 10_000;
/** An account without connections for this long gives its lease back to the shared balance. */
const IDLE_RELEASE_MS = 5_000;
/** Below this, what is left of a balance is granted whole; above, at most half of it, so another
 * instance asking next still gets a share of a small balance. */
const LEASE_TAIL_BYTES = 64 * 1024;

/**
 * Grants up to `want` bytes of what the user's balance has not leased yet (at most half of it,
 * see LEASE_TAIL_BYTES), in one statement:
 * the user's row is locked and checked (balance - leased > 0), leased_bytes and this instance's
 * lease row move by the same amount. Returns the bytes granted (0: nothing left to lease).
 */
async function grantLease(
  executor: SqlExecutor,
  instanceId: string,
  userId: string,
  want: number,
): Promise<number> {
  const result = await executor.execute<{ bytes: string | number }>(sql`
    WITH available AS (
      SELECT id, LEAST(${want}::bigint, GREATEST(
               (balance_bytes - leased_bytes) / 2, LEAST(balance_bytes - leased_bytes, ${LEASE_TAIL_BYTES}))) AS bytes
        FROM users WHERE id = ${userId} FOR NO KEY UPDATE
    ), granted AS (
      UPDATE users SET leased_bytes = users.leased_bytes + available.bytes
        FROM available WHERE users.id = available.id AND available.bytes > 0
      RETURNING users.id, available.bytes
    ), held AS (
      INSERT INTO balance_leases (instance_id, user_id, bytes, expires_at)
      SELECT ${instanceId}, id, bytes, now() + make_interval(secs => ${LEASE_TTL_SECONDS}) FROM granted
      ON CONFLICT (instance_id, user_id) DO UPDATE
        SET bytes = balance_leases.bytes + EXCLUDED.bytes, expires_at = EXCLUDED.expires_at
      RETURNING user_id
    )
    SELECT granted.bytes FROM granted JOIN held ON held.user_id = granted.id`);
  return Number(result.rows[0]?.bytes ?? 0);
}

/** Gives back up to `bytes` of this instance's lease (the part a debit consumed). Runs inside the
 * usage flush's transaction, after its ledger entry locked the user's row. */
export async function releaseLease(
  executor: SqlExecutor,
  instanceId: string,
  userId: string,
  bytes: number,
): Promise<void> {
  await executor.execute(sql`
    WITH lease AS (
      SELECT user_id, LEAST(bytes, ${bytes}::bigint) AS bytes FROM balance_leases
       WHERE instance_id = ${instanceId} AND user_id = ${userId} FOR UPDATE
    ), released AS (
      UPDATE balance_leases SET bytes = balance_leases.bytes - lease.bytes,
             expires_at = now() + make_interval(secs => ${LEASE_TTL_SECONDS})
        FROM lease WHERE balance_leases.instance_id = ${instanceId} AND balance_leases.user_id = lease.user_id
      RETURNING lease.user_id, lease.bytes
    )
    UPDATE users SET leased_bytes = users.leased_bytes - released.bytes
      FROM released WHERE users.id = released.user_id`);
}

/** Deletes whole leases (of this instance, or every expired one) and takes them off leased_bytes. */
async function dropLeases(executor: SqlExecutor, which: ReturnType<typeof sql>): Promise<void> {
  await executor.execute(sql`
    WITH dropped AS (DELETE FROM balance_leases WHERE ${which} RETURNING user_id, bytes),
    per_user AS (SELECT user_id, sum(bytes) AS bytes FROM dropped GROUP BY user_id)
    UPDATE users SET leased_bytes = users.leased_bytes - per_user.bytes
      FROM per_user WHERE users.id = per_user.user_id`);
}

/**
 * This instance's side of the shared balance: reserves byte leases before relaying, renews them
 * ahead of time (when half is spent, never per chunk), and gives back what is left when an
 * account goes idle or its balance is gone. Every lease statement of the instance runs one after
 * another, so what it holds in memory is what the database holds.
 */
export class BalanceLeases {
  private chain: Promise<unknown> = Promise.resolve();
  private keptUpAt = 0;
  private sweptAt = 0;
  private readonly bounds: LeaseBounds;

  constructor(
    private readonly deps: {
      database: Database;
      instanceId: string;
      maxBytes: number;
      /** How often leases are extended and checked against balances (the cache TTL). */
      upkeepMs: number;
      logger: Logger;
    },
  ) {
    this.bounds = { minBytes: Math.min(LEASE_MIN_BYTES, deps.maxBytes), maxBytes: deps.maxBytes };
  }

  get instanceId(): string {
    return this.deps.instanceId;
  }

  /** Runs this instance's grants and lease upkeep one at a time (the usage flush's release
   * runs beside them: it locks the user's row before the lease row, as a grant does). */
  serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => {});
    return run;
  }

  /** Admission: true when the account holds (or now got) lease to relay with. Throws when the
   * database cannot be asked and nothing is held. */
  async admit(account: AccountBalance): Promise<boolean> {
    account.touch();
    if (account.remaining > 0) {
      this.spent(account);
      return true;
    }
    await this.renew(account);
    return account.remaining > 0;
  }

  /** Called by the meter once less than half of the last lease is left: renews in the
   * background and closes the account's connections once nothing is left to relay with. */
  spent(account: AccountBalance): void {
    if (account.dueForRenewal()) this.renew(account).catch(() => {});
    account.enforce();
  }

  private renew(account: AccountBalance): Promise<void> {
    return account.renew(
      (want) => this.serial(() => grantLease(this.deps.database.db, this.instanceId, account.userId, want)),
      this.bounds,
    );
  }

  /**
   * At most once per upkeepMs, after a flush: extends this instance's leases, adopts what the database says it holds (a
   * lease reclaimed during a long outage is gone), gives back leases it should not keep (idle
   * accounts, accounts whose balance is 0 or less, leftovers of this instance's previous run),
   * and reclaims expired leases of crashed instances. Accounts left without lease are closed.
   */
  async maintain(accounts: ReadonlyMap<string, AccountBalance>): Promise<void> {
    if (Date.now() - this.keptUpAt < this.deps.upkeepMs) return;
    await this.serial(async () => {
      const held = await this.deps.database.query<{
        user_id: string;
        bytes: string | number;
        balance_bytes: string | number;
      }>(
        `UPDATE balance_leases SET expires_at = now() + make_interval(secs => ${LEASE_TTL_SECONDS})
           FROM users WHERE users.id = balance_leases.user_id AND balance_leases.instance_id = $1
         RETURNING balance_leases.user_id, balance_leases.bytes, users.balance_bytes`,
        [this.instanceId],
      );
      const now = Date.now();
      const giveBack = held
        .filter((row) => {
          const account = accounts.get(row.user_id);
          if (account && !account.idle(IDLE_RELEASE_MS, now) && Number(row.balance_bytes) > 0) return false;
          return true;
        })
        .map((row) => row.user_id);
      const keep = new Map(held.map((row) => [row.user_id, Number(row.bytes)]));
      for (const userId of giveBack) keep.delete(userId);
      for (const account of accounts.values()) account.adopt(keep.get(account.userId) ?? 0);
      if (giveBack.length > 0) {
        await dropLeases(
          this.deps.database.db,
          sql`instance_id = ${this.instanceId} AND user_id = ANY(${`{${giveBack.join(",")}}`}::uuid[])`,
        );
      }
      if (now - this.sweptAt >= SWEEP_INTERVAL_MS) {
        await dropLeases(this.deps.database.db, sql`expires_at < now()`);
        this.sweptAt = now;
      }
      this.keptUpAt = now;
    });
    for (const account of accounts.values()) account.enforce();
  }

  /** Graceful stop: everything this instance still holds goes back to the balances. */
  async releaseAll(): Promise<void> {
    await this.serial(() => dropLeases(this.deps.database.db, sql`instance_id = ${this.instanceId}`));
  }
}
