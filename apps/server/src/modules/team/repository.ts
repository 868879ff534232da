import type { AccountAccess, ActivityEntry, MemberRole, Role, TeamMember } from "@bytetoll/contracts";
import type { Database, SqlExecutor } from "@bytetoll/db";
import { sql } from "drizzle-orm";

const iso = (value: Date | string) => new Date(value).toISOString();

type Tx = Parameters<Parameters<Database["db"]["transaction"]>[0]>[0];

/** The SQL of team members, switched sessions and the account's activity list. */
export function createTeamRepository(database: Database) {
  return {
    transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      return database.db.transaction(work);
    },

    /** The owner first, then members by when they joined. */
    async members(accountId: string): Promise<TeamMember[]> {
      const rows = await database.query<{ id: string; email: string; role: Role; created_at: Date }>(
        `SELECT id, email, 'owner' AS role, created_at, 0 AS rank FROM users WHERE id = $1
         UNION ALL
         SELECT u.id, u.email, m.role, m.created_at, 1 FROM account_members m JOIN users u ON u.id = m.user_id
          WHERE m.account_id = $1
         ORDER BY rank, created_at, email`,
        [accountId],
      );
      return rows.map((row) => ({
        id: row.id,
        email: row.email,
        role: row.role,
        created_at: iso(row.created_at),
      }));
    },

    /** Serialises changes to one account's team across instances until the transaction ends. */
    async lockAccount(tx: SqlExecutor, accountId: string): Promise<{ email: string } | null> {
      const result = await tx.execute<{ email: string }>(
        sql`SELECT email FROM users WHERE id = ${accountId} FOR UPDATE`,
      );
      return result.rows[0] ?? null;
    },

    async countMembers(tx: SqlExecutor, accountId: string): Promise<number> {
      const result = await tx.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM account_members WHERE account_id = ${accountId}`,
      );
      return Number(result.rows[0]?.n ?? 0);
    },

    /** The person's user row, made if new: they sign in with the usual link to that address. */
    async upsertUser(tx: SqlExecutor, email: string): Promise<string> {
      const result = await tx.execute<{ id: string }>(sql`
        INSERT INTO users (email) VALUES (${email})
        ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email
        RETURNING id`);
      return result.rows[0]!.id;
    },

    /** False when they already are a member. */
    async insertMember(
      tx: SqlExecutor,
      member: { accountId: string; userId: string; role: MemberRole; invitedBy: string },
    ): Promise<{ created_at: Date } | null> {
      const result = await tx.execute<{ created_at: Date }>(sql`
        INSERT INTO account_members (account_id, user_id, role, invited_by)
        VALUES (${member.accountId}, ${member.userId}, ${member.role}, ${member.invitedBy})
        ON CONFLICT DO NOTHING RETURNING created_at`);
      return result.rows[0] ?? null;
    },

    /** The new role on the membership and on the member's live sessions of the account (their
     * next request reads it: the session trigger tells every instance at commit). */
    async changeRole(tx: SqlExecutor, accountId: string, userId: string, role: MemberRole) {
      const result = await tx.execute<{ email: string; created_at: Date }>(sql`
        UPDATE account_members m SET role = ${role} FROM users u
         WHERE m.account_id = ${accountId} AND m.user_id = ${userId} AND u.id = m.user_id
        RETURNING u.email, m.created_at`);
      await tx.execute(sql`
        UPDATE sessions SET role = ${role}
         WHERE user_id = ${userId} AND account_id = ${accountId} AND revoked_at IS NULL`);
      return result.rows[0] ?? null;
    },

    /** Removes the membership and revokes the member's sessions of the account. */
    async removeMember(
      tx: SqlExecutor,
      accountId: string,
      userId: string,
    ): Promise<{ email: string } | null> {
      const result = await tx.execute<{ email: string }>(sql`
        DELETE FROM account_members m USING users u
         WHERE m.account_id = ${accountId} AND m.user_id = ${userId} AND u.id = m.user_id
        RETURNING u.email`);
      await tx.execute(sql`
        UPDATE sessions SET revoked_at = now()
         WHERE user_id = ${userId} AND account_id = ${accountId} AND revoked_at IS NULL`);
      return result.rows[0] ?? null;
    },

    /** Their own account first, then the ones they are a member of. */
    async accountsOf(personId: string): Promise<Array<Omit<AccountAccess, "current">>> {
      return database.query(
        `SELECT id, email, role FROM (
           SELECT id, email, 'owner' AS role, 0 AS rank, created_at AS since FROM users WHERE id = $1
           UNION ALL
           SELECT a.id, a.email, m.role, 1, m.created_at FROM account_members m JOIN users a ON a.id = m.account_id
            WHERE m.user_id = $1) x
         ORDER BY rank, since`,
        [personId],
      );
    },

    /** A new session of the person on the account, ending when the one they switch from ends;
     * null when that session is gone or they are not (any more) a member. */
    async openSession(personId: string, fromSessionId: string, accountId: string) {
      const own = personId === accountId;
      const [row] = await database.query<{ id: string; exp: number; role: Role }>(
        `INSERT INTO sessions (user_id, account_id, role, expires_at)
         SELECT s.user_id, $3::uuid, COALESCE(m.role, 'owner'), s.expires_at FROM sessions s
           LEFT JOIN account_members m ON m.account_id = $3 AND m.user_id = s.user_id
          WHERE s.id = $2 AND s.user_id = $1 AND s.revoked_at IS NULL AND s.expires_at > now()
            AND ($4::boolean OR m.user_id IS NOT NULL)
         RETURNING id, floor(extract(epoch FROM expires_at))::int AS exp, role`,
        [personId, fromSessionId, own ? null : accountId, own],
      );
      return row ?? null;
    },

    async record(
      executor: SqlExecutor | null,
      entry: { accountId: string; actorId: string; actorEmail: string; action: string; detail: string },
    ): Promise<void> {
      const statement = sql`
        INSERT INTO account_activity (account_id, actor_id, actor_email, action, detail)
        VALUES (${entry.accountId}, ${entry.actorId}, ${entry.actorEmail}, ${entry.action}, ${entry.detail})`;
      await (executor ?? database.db).execute(statement);
    },

    async activity(accountId: string, limit: number): Promise<ActivityEntry[]> {
      const rows = await database.query<
        Omit<ActivityEntry, "created_at" | "id"> & { id: string; created_at: Date }
      >(
        `SELECT id, actor_email, action, detail, created_at FROM account_activity
          WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
        [accountId, limit],
      );
      return rows.map((row) => ({ ...row, id: Number(row.id), created_at: iso(row.created_at) }));
    },
  };
}

export type TeamRepository = ReturnType<typeof createTeamRepository>;
