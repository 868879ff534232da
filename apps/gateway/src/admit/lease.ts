import type { Database, SqlExecutor } from "@bytetoll/db";
import { type SQL, sql } from "drizzle-orm";
import type { AccountBalance, LeaseBounds } from "./account-balance.ts";

/** The first lease of an account (or its whole balance when that is less). */
export const LEASE_MIN_BYTES = 4 * 1024 * 1024;
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
 * What leases are drawn from: a row with a `leased_bytes` column (the sum of its lease rows), and
 * a lease table with one row per instance and source. Identifiers are fixed here, never input.
 */
export interface LeaseSource {
  table: "users" | "subusers";
  leaseTable: "balance_leases" | "subuser_leases";
  key: "user_id" | "subuser_id";
  /** What is left to lease of the source row (`want` when nothing bounds it). */
  left: (want: number) => SQL;
  /** Which source rows may be leased from at all. */
  eligible: SQL;
  /** Whether a lease held may stay held (the source can still pay for it). */
  keepable: SQL;
}

/** An account's premium balance (bytes at the mobile price). */
export const BALANCE: LeaseSource = {
  table: "users",
  leaseTable: "balance_leases",
  key: "user_id",
  left: () => sql`balance_bytes - leased_bytes`,
  eligible: sql`TRUE`,
  keepable: sql`users.balance_bytes > 0`,
};

/** A sub-user's allowance: what is left of its limit this period and not leased yet (the used
 * bytes of an earlier period count as none); a sub-user without a limit has `want` left, and a
 * disabled one nothing. */
export const SUBUSER_ALLOWANCE: LeaseSource = {
  table: "subusers",
  leaseTable: "subuser_leases",
  key: "subuser_id",
  left: (want) => sql`
    CASE WHEN limit_bytes IS NULL THEN ${want}::bigint
         ELSE limit_bytes - leased_bytes
              - CASE WHEN period_start = subuser_period_start(limit_period) THEN used_bytes ELSE 0 END
    END`,
  eligible: sql`enabled`,
  keepable: sql`TRUE`,
};

const names = (source: LeaseSource) => ({
  table: sql.raw(source.table),
  leases: sql.raw(source.leaseTable),
  key: sql.raw(source.key),
});

/**
 * Grants up to `want` bytes of what the source has not leased yet (at most half of it, see
 * LEASE_TAIL_BYTES), in one statement: the source row is locked and checked (something left),
 * its leased_bytes and this instance's lease row move by the same amount. Returns the bytes
 * granted (0: nothing left to lease).
 */
async function grantLease(
  executor: SqlExecutor,
  source: LeaseSource,
  instanceId: string,
  id: string,
  want: number,
): Promise<number> {
  const { table, leases, key } = names(source);
  const result = await executor.execute<{ bytes: string | number }>(sql`
    WITH s AS (
      SELECT id, ${source.left(want)} AS left_bytes FROM ${table}
       WHERE id = ${id} AND ${source.eligible} FOR NO KEY UPDATE
    ), available AS (
      SELECT id, LEAST(${want}::bigint, GREATEST(left_bytes / 2, LEAST(left_bytes, ${LEASE_TAIL_BYTES}))) AS bytes FROM s
    ), granted AS (
      UPDATE ${table} SET leased_bytes = ${table}.leased_bytes + available.bytes
        FROM available WHERE ${table}.id = available.id AND available.bytes > 0
      RETURNING ${table}.id, available.bytes
    ), held AS (
      INSERT INTO ${leases} (instance_id, ${key}, bytes, expires_at)
      SELECT ${instanceId}, id, bytes, now() + make_interval(secs => ${LEASE_TTL_SECONDS}) FROM granted
      ON CONFLICT (instance_id, ${key}) DO UPDATE
        SET bytes = ${leases}.bytes + EXCLUDED.bytes, expires_at = EXCLUDED.expires_at
      RETURNING ${key}
    )
    SELECT granted.bytes FROM granted JOIN held ON held.${key} = granted.id`);
  return Number(result.rows[0]?.bytes ?? 0);
}

/** Gives back up to `bytes` of this instance's lease (the part a debit consumed). Runs inside the
 * usage flush's transaction, after it locked the source row. A debit past the lease row is the
 * run-ahead the flusher checked before the transaction (AccountBalance.assertCommit), or bytes
 * relayed under a lease reclaimed meanwhile: the row gives back what it holds. */
export async function releaseLease(
  executor: SqlExecutor,
  source: LeaseSource,
  instanceId: string,
  id: string,
  bytes: number,
): Promise<void> {
  const { table, leases, key } = names(source);
  await executor.execute(sql`
    WITH lease AS (
      SELECT ${key} AS id, LEAST(bytes, ${bytes}::bigint) AS bytes FROM ${leases}
       WHERE instance_id = ${instanceId} AND ${key} = ${id} FOR UPDATE
    ), released AS (
      UPDATE ${leases} SET bytes = ${leases}.bytes - lease.bytes,
             expires_at = now() + make_interval(secs => ${LEASE_TTL_SECONDS})
        FROM lease WHERE ${leases}.instance_id = ${instanceId} AND ${leases}.${key} = lease.id
      RETURNING lease.id, lease.bytes
    )
    UPDATE ${table} SET leased_bytes = ${table}.leased_bytes - released.bytes
      FROM released WHERE ${table}.id = released.id`);
}

/** Deletes whole leases (of this instance, or every expired one) and takes them off leased_bytes. */
async function dropLeases(executor: SqlExecutor, source: LeaseSource, which: SQL): Promise<void> {
  const { table, leases, key } = names(source);
  await executor.execute(sql`
    WITH dropped AS (DELETE FROM ${leases} WHERE ${which} RETURNING ${key} AS id, bytes),
    per_source AS (SELECT id, sum(bytes) AS bytes FROM dropped GROUP BY id)
    UPDATE ${table} SET leased_bytes = ${table}.leased_bytes - per_source.bytes
      FROM per_source WHERE ${table}.id = per_source.id`);
}

/**
 * This instance's side of a shared source (balances, or sub-users' allowances): reserves byte
 * leases before relaying, renews them ahead of time (when half is spent, never per chunk), and
 * gives back what is left when an account goes idle or its source can no longer pay. Every lease
 * statement of the instance runs one after another, so what it holds in memory is what the
 * database holds. However many instances serve an account, it overdraws its source by at most
 * instances × one lease (plus what each connection relays before its flow next reads the
 * counts: a chunk, or a spliced tunnel's 64 KiB and one pipe's worth each way).
 */
export class Leases<A extends AccountBalance> {
  private chain: Promise<unknown> = Promise.resolve();
  private keptUpAt = 0;
  private sweptAt = 0;
  private readonly bounds: LeaseBounds;

  constructor(
    private readonly source: LeaseSource,
    /** The source row's id of an account held in memory. */
    private readonly idOf: (account: A) => string,
    private readonly deps: {
      database: Database;
      instanceId: string;
      maxBytes: number;
      /** How often leases are extended and checked against their sources (the cache TTL). */
      upkeepMs: number;
    },
  ) {
    this.bounds = { minBytes: Math.min(LEASE_MIN_BYTES, deps.maxBytes), maxBytes: deps.maxBytes };
  }

  get instanceId(): string {
    return this.deps.instanceId;
  }

  /** Runs this instance's grants and lease upkeep one at a time (the usage flush's release
   * runs beside them: it locks the source row before the lease row, as a grant does). */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => {});
    return run;
  }

  /** Admission: true when the account holds (or now got) lease to relay with. Throws when the
   * database cannot be asked and nothing is held. */
  async admit(account: A): Promise<boolean> {
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
  spent(account: A): void {
    if (account.dueForRenewal()) this.renew(account).catch(() => {});
    account.enforce();
  }

  private renew(account: A): Promise<void> {
    const { database, instanceId } = this.deps;
    return account.renew(
      (want) => this.serial(() => grantLease(database.db, this.source, instanceId, this.idOf(account), want)),
      this.bounds,
    );
  }

  /**
   * At most once per upkeepMs, after a flush: extends this instance's leases, adopts what the
   * database says it holds (a lease reclaimed during a long outage is gone), gives back leases it
   * should not keep (idle accounts, sources that can no longer pay, leftovers of this instance's
   * previous run), and reclaims expired leases of crashed instances. Accounts left without lease
   * are closed.
   */
  async maintain(accounts: ReadonlyMap<string, A>): Promise<void> {
    if (Date.now() - this.keptUpAt < this.deps.upkeepMs) return;
    const { database, instanceId } = this.deps;
    const { table, leases, key } = names(this.source);
    await this.serial(async () => {
      const held = await database.db.execute<{ id: string; bytes: string | number; keepable: boolean }>(sql`
        UPDATE ${leases} SET expires_at = now() + make_interval(secs => ${LEASE_TTL_SECONDS})
          FROM ${table} WHERE ${table}.id = ${leases}.${key} AND ${leases}.instance_id = ${instanceId}
        RETURNING ${leases}.${key} AS id, ${leases}.bytes, ${this.source.keepable} AS keepable`);
      const now = Date.now();
      const giveBack = held.rows
        .filter((row) => !row.keepable || (accounts.get(row.id)?.idle(IDLE_RELEASE_MS, now) ?? true))
        .map((row) => row.id);
      const keep = new Map(held.rows.map((row) => [row.id, Number(row.bytes)]));
      for (const id of giveBack) keep.delete(id);
      for (const account of accounts.values()) account.adopt(keep.get(this.idOf(account)) ?? 0);
      if (giveBack.length > 0) {
        const ids = `{${giveBack.join(",")}}`;
        await dropLeases(
          database.db,
          this.source,
          sql`instance_id = ${instanceId} AND ${key} = ANY(${ids}::uuid[])`,
        );
      }
      if (now - this.sweptAt >= SWEEP_INTERVAL_MS) {
        await dropLeases(database.db, this.source, sql`expires_at < now()`);
        this.sweptAt = now;
      }
      this.keptUpAt = now;
    });
    for (const account of accounts.values()) account.enforce();
  }

  /** Graceful stop: everything this instance still holds goes back to the sources. */
  async releaseAll(): Promise<void> {
    await this.serial(() =>
      dropLeases(this.deps.database.db, this.source, sql`instance_id = ${this.instanceId}`),
    );
  }
}

export type BalanceLeases = Leases<AccountBalance>;
