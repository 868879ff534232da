import type { SubuserLimitPeriod } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import { sql } from "drizzle-orm";

export interface SubuserRow {
  id: string;
  label: string;
  username: string;
  password_enc: string;
  limit_bytes: string | number | null;
  limit_period: SubuserLimitPeriod;
  used_bytes: string | number;
  period_start: string;
  enabled: boolean;
  allowed_domains: string[] | null;
  created_at: Date | string;
}

export interface NewSubuser {
  label: string;
  username: string;
  passwordHash: string;
  passwordEnc: string;
  limitBytes: number | null;
  limitPeriod: SubuserLimitPeriod;
}

export interface SubuserChanges {
  label?: string;
  limitBytes?: number | null;
  limitPeriod?: SubuserLimitPeriod;
  enabled?: boolean;
  allowedDomains?: string[] | null;
}

// The period's use as of now: bytes of an earlier period count as none.
const COLUMNS = `id, label, username, password_enc, limit_bytes, limit_period, enabled, allowed_domains, created_at,
  CASE WHEN period_start = subuser_period_start(limit_period) THEN used_bytes ELSE 0 END AS used_bytes,
  to_char(subuser_period_start(limit_period), 'YYYY-MM-DD') AS period_start`;

/** The SQL of sub-users; every statement names the owner, so another's id finds nothing. */
export function createSubusersRepository(database: Database) {
  return {
    list(userId: string): Promise<SubuserRow[]> {
      return database.query<SubuserRow>(
        `SELECT ${COLUMNS} FROM subusers WHERE user_id = $1 ORDER BY created_at, id`,
        [userId],
      );
    },

    async find(userId: string, id: string): Promise<SubuserRow | null> {
      const [row] = await database.query<SubuserRow>(
        `SELECT ${COLUMNS} FROM subusers WHERE user_id = $1 AND id = $2`,
        [userId, id],
      );
      return row ?? null;
    },

    /** Inserts unless the owner already holds `max`; the owner's sub-users are counted under a
     * per-owner transaction lock, so concurrent creations cannot pass the cap together. Returns
     * the new id, or null at the cap. A taken label or username throws unique_violation. */
    async insert(userId: string, subuser: NewSubuser, max: number): Promise<string | null> {
      return database.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`subusers:${userId}`}))`);
        const inserted = await tx.execute<{ id: string }>(sql`
          INSERT INTO subusers (user_id, label, username, password_hash, password_enc, limit_bytes, limit_period, period_start)
          SELECT ${userId}, ${subuser.label}, ${subuser.username}, ${subuser.passwordHash}, ${subuser.passwordEnc},
                 ${subuser.limitBytes}::bigint, ${subuser.limitPeriod}, subuser_period_start(${subuser.limitPeriod})
           WHERE (SELECT count(*) FROM subusers WHERE user_id = ${userId}) < ${max}
          RETURNING id`);
        return inserted.rows[0]?.id ?? null;
      });
    },

    /** One UPDATE; a new period kind recounts the use of its current period from the daily totals. */
    async update(userId: string, id: string, changes: SubuserChanges): Promise<boolean> {
      const sets = [sql`updated_at = now()`];
      if (changes.label !== undefined) sets.push(sql`label = ${changes.label}`);
      if (changes.limitBytes !== undefined) {
        // A new limit is a new one to reach: the owner is told again when it is.
        sets.push(
          sql`limit_bytes = ${changes.limitBytes}::bigint`,
          sql`limit_notified_period = CASE WHEN limit_bytes IS DISTINCT FROM ${changes.limitBytes}::bigint
                                           THEN NULL ELSE limit_notified_period END`,
        );
      }
      if (changes.enabled !== undefined) sets.push(sql`enabled = ${changes.enabled}`);
      if (changes.allowedDomains !== undefined) {
        // Sent as JSON: one way of passing a list that both database drivers read alike.
        const list = changes.allowedDomains === null ? null : JSON.stringify(changes.allowedDomains);
        sets.push(
          sql`allowed_domains = CASE WHEN ${list}::jsonb IS NULL THEN NULL
                                ELSE ARRAY(SELECT jsonb_array_elements_text(${list}::jsonb)) END`,
        );
      }
      if (changes.limitPeriod !== undefined) {
        const period = changes.limitPeriod;
        sets.push(
          sql`limit_period = ${period}`,
          sql`period_start = subuser_period_start(${period})`,
          sql`used_bytes = (SELECT coalesce(sum(bytes), 0) FROM usage_daily_totals t
                             WHERE t.user_id = subusers.user_id AND t.subuser_id = subusers.id
                               AND t.day >= subuser_period_start(${period}))`,
        );
      }
      const result = await database.db.execute(
        sql`UPDATE subusers SET ${sql.join(sets, sql`, `)} WHERE user_id = ${userId} AND id = ${id} RETURNING id`,
      );
      return result.rows.length > 0;
    },

    async replacePassword(
      userId: string,
      id: string,
      password: { passwordHash: string; passwordEnc: string },
    ): Promise<boolean> {
      const rows = await database.query(
        `UPDATE subusers SET password_hash = $3, password_enc = $4, updated_at = now()
          WHERE user_id = $1 AND id = $2 RETURNING id`,
        [userId, id, password.passwordHash, password.passwordEnc],
      );
      return rows.length > 0;
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const rows = await database.query("DELETE FROM subusers WHERE user_id = $1 AND id = $2 RETURNING id", [
        userId,
        id,
      ]);
      return rows.length > 0;
    },
  };
}

export type SubusersRepository = ReturnType<typeof createSubusersRepository>;
