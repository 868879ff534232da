import type { Database, SqlExecutor } from "@bytetoll/db";
import { sql } from "drizzle-orm";

/** The operator console's reads and writes of accounts (users) and sign-in sessions, which this
 * module owns; the admin module composes them (docs/architecture.md). */

export type CustomerRow = {
  id: string;
  email: string;
  balance_bytes: string | number;
  leased_bytes: string | number;
  created_at: Date | string;
  disabled_at: Date | string | null;
};

export interface AccountRow {
  id: string;
  email: string;
  balance_bytes: string | number;
  created_at: Date | string;
}

const CUSTOMER_COLUMNS = "id, email, balance_bytes, leased_bytes, created_at, disabled_at";

/** `filter` is a LIKE pattern on the e-mail address, or null for every account. */
function page(filter: string | null) {
  return { where: filter ? "WHERE email LIKE $1" : "", params: filter ? [filter] : [] };
}

export async function customerById(database: Database, id: string): Promise<CustomerRow | undefined> {
  const [row] = await database.query<CustomerRow>(`SELECT ${CUSTOMER_COLUMNS} FROM users WHERE id = $1`, [
    id,
  ]);
  return row;
}

/** One page of accounts, newest first, and how many match in all. */
export async function customersPage(
  database: Database,
  filter: string | null,
  perPage: number,
  pageNumber: number,
): Promise<{ rows: CustomerRow[]; total: number }> {
  const { where, params } = page(filter);
  const [rows, totals] = await Promise.all([
    database.query<CustomerRow>(
      `SELECT ${CUSTOMER_COLUMNS} FROM users ${where}
            ORDER BY created_at DESC, id LIMIT ${perPage} OFFSET ${(pageNumber - 1) * perPage}`,
      params,
    ),
    database.query<{ total: string }>(`SELECT count(*) AS total FROM users ${where}`, params),
  ]);
  return { rows, total: Number(totals[0]?.total ?? 0) };
}

/** The account row locked for the rest of the caller's transaction. */
export async function lockCustomer(tx: SqlExecutor, id: string): Promise<CustomerRow | undefined> {
  const before = await tx.execute<CustomerRow>(
    sql`SELECT ${sql.raw(CUSTOMER_COLUMNS)} FROM users WHERE id = ${id} FOR UPDATE`,
  );
  return before.rows[0];
}

/** Sets or clears disabled_at inside the caller's transaction (the users_changed trigger tells
 * every gateway). */
export async function setCustomerDisabled(tx: SqlExecutor, id: string, disabled: boolean) {
  const after = await tx.execute<CustomerRow>(sql`
          UPDATE users SET disabled_at = ${disabled ? sql`now()` : null}
           WHERE id = ${id} RETURNING ${sql.raw(CUSTOMER_COLUMNS)}`);
  return after.rows[0] as CustomerRow;
}

/** How many sessions are signed in now, and when the latest one began. */
export async function sessionSummary(database: Database, userId: string) {
  const [row] = await database.query<{ active: string; latest_at: Date | string | null }>(
    `SELECT count(*) FILTER (WHERE revoked_at IS NULL AND expires_at > now()) AS active,
                  max(created_at) AS latest_at
             FROM sessions WHERE user_id = $1`,
    [userId],
  );
  return row;
}

/** Revokes every live session of the account inside the caller's transaction; answers how many. */
export async function revokeLiveSessions(tx: SqlExecutor, userId: string): Promise<number> {
  const revoked = await tx.execute<{ id: string }>(sql`
          UPDATE sessions SET revoked_at = now()
           WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > now() RETURNING id`);
  return revoked.rows.length;
}

export async function accountByEmail(database: Database, email: string): Promise<AccountRow | undefined> {
  const [row] = await database.query<AccountRow>(
    "SELECT id, email, balance_bytes, created_at FROM users WHERE email = lower($1)",
    [email.trim()],
  );
  return row;
}

export async function accountById(database: Database, id: string): Promise<AccountRow | undefined> {
  const [row] = await database.query<AccountRow>(
    "SELECT id, email, balance_bytes, created_at FROM users WHERE id = $1",
    [id],
  );
  return row;
}

/** One page of accounts (the CLI's and the admin API's short form), newest first. */
export async function accountsPage(
  database: Database,
  filter: string | null,
  perPage: number,
  pageNumber: number,
): Promise<{ rows: AccountRow[]; total: number }> {
  const { where, params } = page(filter);
  const [rows, totals] = await Promise.all([
    database.query<AccountRow>(
      `SELECT id, email, balance_bytes, created_at FROM users ${where}
            ORDER BY created_at DESC, id LIMIT ${perPage} OFFSET ${(pageNumber - 1) * perPage}`,
      params,
    ),
    database.query<{ total: string }>(`SELECT count(*) AS total FROM users ${where}`, params),
  ]);
  return { rows, total: Number(totals[0]?.total ?? 0) };
}

/** Accounts made since `since`, all accounts, and the disabled ones. */
export async function accountCounts(database: Database, since: string) {
  const [row] = await database.query<{ new: string; total: string; disabled: string }>(
    `SELECT count(*) FILTER (WHERE created_at >= $1::timestamptz) AS new,
              count(*) AS total,
              count(*) FILTER (WHERE disabled_at IS NOT NULL) AS disabled
         FROM users`,
    [since],
  );
  return row;
}

/** The e-mail address of each of these account ids (as text) that names an account. */
export async function accountEmails(database: Database, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await database.query<{ id: string; email: string }>(
    "SELECT u.id::text AS id, u.email FROM users u WHERE u.id::text = ANY($1::text[])",
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.email]));
}

/** Each of these account ids (as text) that names an account: its e-mail and whether an operator
 * disabled it. */
export async function accountLabels(
  database: Database,
  ids: string[],
): Promise<Map<string, { email: string; disabled: boolean }>> {
  if (ids.length === 0) return new Map();
  const rows = await database.query<{ id: string; email: string; disabled: boolean }>(
    `SELECT u.id::text AS id, u.email, u.disabled_at IS NOT NULL AS disabled
       FROM users u WHERE u.id::text = ANY($1::text[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, { email: row.email, disabled: row.disabled }]));
}

/** Whether an account has this id, read inside the caller's transaction. */
export async function accountExists(executor: SqlExecutor, id: string): Promise<boolean> {
  const found = await executor.execute(sql`SELECT 1 FROM users WHERE id = ${id}`);
  return found.rows.length > 0;
}

/** The e-mail address of each of these account ids that names an account, read inside the
 * caller's transaction. */
export async function accountEmailsIn(executor: SqlExecutor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const found = await executor.execute<{ id: string; email: string }>(
    sql`SELECT u.id::text AS id, u.email FROM users u WHERE u.id::text = ANY(${`{${ids.join(",")}}`}::text[])`,
  );
  return new Map(found.rows.map((row) => [row.id, row.email]));
}
