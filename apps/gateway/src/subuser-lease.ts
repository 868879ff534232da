import type { Database, SqlExecutor } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import type { LeaseBounds } from "./account-balance.ts";
import { LEASE_MIN_BYTES, LEASE_TTL_SECONDS } from "./lease.ts";
import type { SubuserAllowance } from "./subuser-allowance.ts";

/** How often an instance looks for expired sub-user leases of other instances. */
const SWEEP_INTERVAL_MS = 10_000;
/** A sub-user without connections for this long gives its lease back to its allowance. */
const IDLE_RELEASE_MS = 5_000;
/** Below this, what is left of an allowance is granted whole; above, at most half of it. */
const LEASE_TAIL_BYTES = 64 * 1024;

/** What is left of the sub-user's limit this period and not leased yet (the used bytes of an
 * earlier period count as none); a sub-user without a limit has `want` left. */
const leftOfLimit = (want: number) => sql`
  CASE WHEN limit_bytes IS NULL THEN ${want}::bigint
       ELSE limit_bytes - leased_bytes
            - CASE WHEN period_start = subuser_period_start(limit_period) THEN used_bytes ELSE 0 END
  END`;

/**
 * Grants up to `want` bytes of the sub-user's allowance (at most half of what is left, see
 * LEASE_TAIL_BYTES) in one statement: the sub-user's row is locked and checked (enabled, limit -
 * used - leased > 0), its leased_bytes and this instance's lease row move by the same amount.
 */
async function grantSubuserLease(
  executor: SqlExecutor,
  instanceId: string,
  subuserId: string,
  want: number,
): Promise<number> {
  const result = await executor.execute<{ bytes: string | number }>(sql`
    WITH s AS (
      SELECT id, ${leftOfLimit(want)} AS left_bytes FROM subusers
       WHERE id = ${subuserId} AND enabled FOR NO KEY UPDATE
    ), available AS (
      SELECT id, LEAST(${want}::bigint, GREATEST(left_bytes / 2, LEAST(left_bytes, ${LEASE_TAIL_BYTES}))) AS bytes FROM s
    ), granted AS (
      UPDATE subusers SET leased_bytes = subusers.leased_bytes + available.bytes
        FROM available WHERE subusers.id = available.id AND available.bytes > 0
      RETURNING subusers.id, available.bytes
    ), held AS (
      INSERT INTO subuser_leases (instance_id, subuser_id, bytes, expires_at)
      SELECT ${instanceId}, id, bytes, now() + make_interval(secs => ${LEASE_TTL_SECONDS}) FROM granted
      ON CONFLICT (instance_id, subuser_id) DO UPDATE
        SET bytes = subuser_leases.bytes + EXCLUDED.bytes, expires_at = EXCLUDED.expires_at
      RETURNING subuser_id
    )
    SELECT granted.bytes FROM granted JOIN held ON held.subuser_id = granted.id`);
  return Number(result.rows[0]?.bytes ?? 0);
}

/**
 * Inside the usage flush's transaction: the sub-user's relayed bytes join its period's use (a new
 * period starts from them), and up to that much of the lease `instanceId` holds goes back — the
 * reserved bytes became used bytes. The sub-user's row is locked first, then the lease row, the
 * order a grant locks them in. A deleted sub-user changes nothing.
 */
export async function settleSubuserUsage(
  executor: SqlExecutor,
  subuserId: string,
  bytes: number,
  instanceId: string | undefined,
): Promise<void> {
  await executor.execute(sql`
    UPDATE subusers SET
      used_bytes = CASE WHEN period_start = subuser_period_start(limit_period)
                        THEN used_bytes + ${bytes}::bigint ELSE ${bytes}::bigint END,
      period_start = subuser_period_start(limit_period)
     WHERE id = ${subuserId}`);
  if (instanceId === undefined) return;
  await executor.execute(sql`
    WITH lease AS (
      SELECT subuser_id, LEAST(bytes, ${bytes}::bigint) AS bytes FROM subuser_leases
       WHERE instance_id = ${instanceId} AND subuser_id = ${subuserId} FOR UPDATE
    ), released AS (
      UPDATE subuser_leases SET bytes = subuser_leases.bytes - lease.bytes,
             expires_at = now() + make_interval(secs => ${LEASE_TTL_SECONDS})
        FROM lease WHERE subuser_leases.instance_id = ${instanceId} AND subuser_leases.subuser_id = lease.subuser_id
      RETURNING lease.subuser_id, lease.bytes
    )
    UPDATE subusers SET leased_bytes = subusers.leased_bytes - released.bytes
      FROM released WHERE subusers.id = released.subuser_id`);
}

/** Deletes whole sub-user leases (of this instance, or every expired one) and takes them off
 * leased_bytes. */
async function dropSubuserLeases(executor: SqlExecutor, which: ReturnType<typeof sql>): Promise<void> {
  await executor.execute(sql`
    WITH dropped AS (DELETE FROM subuser_leases WHERE ${which} RETURNING subuser_id, bytes),
    per_subuser AS (SELECT subuser_id, sum(bytes) AS bytes FROM dropped GROUP BY subuser_id)
    UPDATE subusers SET leased_bytes = subusers.leased_bytes - per_subuser.bytes
      FROM per_subuser WHERE subusers.id = per_subuser.subuser_id`);
}

/**
 * This instance's side of the sub-users' allowances, as BalanceLeases is of balances: a sub-user
 * relays only within bytes reserved of what its limit leaves this period, so however many
 * instances serve it, it overdraws its limit by at most instances × one lease (plus what each
 * connection relays in the read that crosses it).
 */
export class SubuserLeases {
  private chain: Promise<unknown> = Promise.resolve();
  private keptUpAt = 0;
  private sweptAt = 0;
  private readonly bounds: LeaseBounds;

  constructor(
    private readonly deps: { database: Database; instanceId: string; maxBytes: number; upkeepMs: number },
  ) {
    this.bounds = { minBytes: Math.min(LEASE_MIN_BYTES, deps.maxBytes), maxBytes: deps.maxBytes };
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => {});
    return run;
  }

  /** True when the sub-user holds (or now got) allowance to relay with. */
  async admit(allowance: SubuserAllowance): Promise<boolean> {
    allowance.touch();
    if (allowance.remaining > 0) {
      this.spent(allowance);
      return true;
    }
    await this.renew(allowance);
    return allowance.remaining > 0;
  }

  /** Less than half of the lease is left: renew in the background, cut at nothing left. */
  spent(allowance: SubuserAllowance): void {
    if (allowance.dueForRenewal()) this.renew(allowance).catch(() => {});
    allowance.enforce();
  }

  private renew(allowance: SubuserAllowance): Promise<void> {
    const { database, instanceId } = this.deps;
    return allowance.renew(
      (want) => this.serial(() => grantSubuserLease(database.db, instanceId, allowance.subuserId, want)),
      this.bounds,
    );
  }

  /** After a flush, at most once per upkeepMs: extends this instance's leases, adopts what the
   * database says it holds, gives back those of idle sub-users and reclaims expired ones. */
  async maintain(allowances: ReadonlyMap<string, SubuserAllowance>): Promise<void> {
    if (Date.now() - this.keptUpAt < this.deps.upkeepMs) return;
    const { database, instanceId } = this.deps;
    await this.serial(async () => {
      const held = await database.query<{ subuser_id: string; bytes: string | number }>(
        `UPDATE subuser_leases SET expires_at = now() + make_interval(secs => ${LEASE_TTL_SECONDS})
          WHERE instance_id = $1 RETURNING subuser_id, bytes`,
        [instanceId],
      );
      const now = Date.now();
      const giveBack = held
        .filter(
          (row) =>
            !allowances.get(row.subuser_id) || allowances.get(row.subuser_id)?.idle(IDLE_RELEASE_MS, now),
        )
        .map((row) => row.subuser_id);
      const keep = new Map(held.map((row) => [row.subuser_id, Number(row.bytes)]));
      for (const id of giveBack) keep.delete(id);
      for (const allowance of allowances.values()) allowance.adopt(keep.get(allowance.subuserId) ?? 0);
      if (giveBack.length > 0) {
        await dropSubuserLeases(
          database.db,
          sql`instance_id = ${instanceId} AND subuser_id = ANY(${`{${giveBack.join(",")}}`}::uuid[])`,
        );
      }
      if (now - this.sweptAt >= SWEEP_INTERVAL_MS) {
        await dropSubuserLeases(database.db, sql`expires_at < now()`);
        this.sweptAt = now;
      }
      this.keptUpAt = now;
    });
    for (const allowance of allowances.values()) allowance.enforce();
  }

  /** Graceful stop: everything this instance holds goes back to the allowances. */
  async releaseAll(): Promise<void> {
    await this.serial(() =>
      dropSubuserLeases(this.deps.database.db, sql`instance_id = ${this.deps.instanceId}`),
    );
  }
}
