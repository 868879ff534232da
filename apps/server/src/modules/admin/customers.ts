import {
  type AccountsQuery,
  type AdminCustomer,
  type AdminCustomerDetail,
  bytesToGb,
  CUSTOMER_PAGE_ROWS,
  type CustomerDetailQuery,
} from "@bytetoll/contracts";
import { CHANGES_CHANNEL, type Database, type SqlExecutor, schema } from "@bytetoll/db";
import { desc, eq, sql } from "drizzle-orm";
import { AppError } from "../../errors.ts";
import { appendAudit } from "./audit.ts";
import { customerSubusers } from "./customer-subusers.ts";
import { likePattern, toAdminOrder } from "./service.ts";

const USAGE_DAYS = 30;
const DAY_MS = 86_400_000;

type CustomerRow = {
  id: string;
  email: string;
  balance_bytes: string | number;
  leased_bytes: string | number;
  created_at: Date | string;
  disabled_at: Date | string | null;
};

const CUSTOMER_COLUMNS = "id, email, balance_bytes, leased_bytes, created_at, disabled_at";
const iso = (value: Date | string) => new Date(value).toISOString();

export const toCustomer = (row: CustomerRow): AdminCustomer => ({
  id: row.id,
  email: row.email,
  balance_bytes: Number(row.balance_bytes),
  balance_gb: bytesToGb(Number(row.balance_bytes)),
  created_at: iso(row.created_at),
  disabled_at: row.disabled_at === null ? null : iso(row.disabled_at),
});

export const customerNotFound = () => new AppError(404, "Customer not found", "not_found");

/** The last `days` UTC days, oldest first (YYYY-MM-DD). */
export function lastDays(days: number, now = Date.now()): string[] {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return Array.from({ length: days }, (_, index) =>
    new Date(today - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10),
  );
}

/** The console's customers: search, one customer's page, and disabling (docs/product.md#operators). */
export function createCustomersService(database: Database) {
  const { db } = database;

  async function find(id: string): Promise<CustomerRow> {
    const [row] = await database.query<CustomerRow>(`SELECT ${CUSTOMER_COLUMNS} FROM users WHERE id = $1`, [
      id,
    ]);
    if (!row) throw customerNotFound();
    return row;
  }

  /** Tells every instance that what authorised this account's sessions and API token changed:
   * their caches drop them and their sockets are checked again (and closed when disabled). */
  async function announce(tx: SqlExecutor, userId: string): Promise<void> {
    await tx.execute(sql`
      SELECT pg_notify(${CHANGES_CHANNEL}, payload) FROM (
        SELECT 'session:' || ${userId}::text AS payload
        UNION ALL
        SELECT 'api_token:' || token_hash FROM api_tokens WHERE user_id = ${userId}
      ) AS changes`);
  }

  return {
    find: (id: string) => find(id).then(toCustomer),

    async list(query: AccountsQuery): Promise<{ data: AdminCustomer[]; total: number }> {
      const filter = query.email ? likePattern(query.email) : null;
      const where = filter ? "WHERE email LIKE $1" : "";
      const params = filter ? [filter] : [];
      const [rows, totals] = await Promise.all([
        database.query<CustomerRow>(
          `SELECT ${CUSTOMER_COLUMNS} FROM users ${where}
            ORDER BY created_at DESC, id LIMIT ${query.per_page} OFFSET ${(query.page - 1) * query.per_page}`,
          params,
        ),
        database.query<{ total: string }>(`SELECT count(*) AS total FROM users ${where}`, params),
      ]);
      return { data: rows.map(toCustomer), total: Number(totals[0]?.total ?? 0) };
    },

    async detail(id: string, query: CustomerDetailQuery): Promise<AdminCustomerDetail> {
      const row = await find(id);
      const days = lastDays(USAGE_DAYS);
      const ledgerOffset = (query.ledger_page - 1) * CUSTOMER_PAGE_ROWS;
      const ordersOffset = (query.orders_page - 1) * CUSTOMER_PAGE_ROWS;
      const [sessions, token, credential, usage, ledger, ledgerTotal, orders, ordersTotal, subusers] =
        await Promise.all([
          database.query<{ active: string; latest_at: Date | string | null }>(
            `SELECT count(*) FILTER (WHERE revoked_at IS NULL AND expires_at > now()) AS active,
                  max(created_at) AS latest_at
             FROM sessions WHERE user_id = $1`,
            [id],
          ),
          database.query<{ created_at: Date | string }>(
            "SELECT created_at FROM api_tokens WHERE user_id = $1",
            [id],
          ),
          database.query<{ username: string; updated_at: Date | string }>(
            "SELECT username, updated_at FROM proxy_credentials WHERE user_id = $1",
            [id],
          ),
          database.query<{ day: string; bytes: string; requests: string }>(
            `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(bytes) AS bytes, sum(requests) AS requests
             FROM usage_daily_totals WHERE user_id = $1 AND day >= $2::date
            GROUP BY day`,
            [id, days[0]],
          ),
          database.query<{
            id: string;
            kind: string;
            reference: string;
            delta_bytes: string;
            note: string | null;
            created_at: Date | string;
          }>(
            `SELECT id, kind, reference, delta_bytes, note, created_at FROM ledger_entries WHERE user_id = $1
            ORDER BY created_at DESC, id DESC LIMIT ${CUSTOMER_PAGE_ROWS} OFFSET ${ledgerOffset}`,
            [id],
          ),
          database.query<{ total: string }>(
            "SELECT count(*) AS total FROM ledger_entries WHERE user_id = $1",
            [id],
          ),
          db
            .select()
            .from(schema.orders)
            .where(eq(schema.orders.userId, id))
            .orderBy(desc(schema.orders.createdAt), desc(schema.orders.id))
            .limit(CUSTOMER_PAGE_ROWS)
            .offset(ordersOffset),
          database.query<{ total: string }>("SELECT count(*) AS total FROM orders WHERE user_id = $1", [id]),
          customerSubusers(database, id, query.subusers_page, days[0] as string),
        ]);
      const usageByDay = new Map(usage.map((day) => [day.day, day]));
      return {
        ...toCustomer(row),
        leased_bytes: Number(row.leased_bytes),
        leased_gb: bytesToGb(Number(row.leased_bytes)),
        sessions: {
          active: Number(sessions[0]?.active ?? 0),
          latest_at: sessions[0]?.latest_at ? iso(sessions[0].latest_at) : null,
        },
        api_token: { exists: token.length > 0, created_at: token[0] ? iso(token[0].created_at) : null },
        proxy_credentials: {
          username: credential[0]?.username ?? null,
          updated_at: credential[0] ? iso(credential[0].updated_at) : null,
        },
        usage_by_day: days.map((day) => {
          const bytes = Number(usageByDay.get(day)?.bytes ?? 0);
          return { day, bytes, gb: bytesToGb(bytes), requests: Number(usageByDay.get(day)?.requests ?? 0) };
        }),
        ledger: {
          data: ledger.map((entry) => ({
            id: Number(entry.id),
            kind: entry.kind,
            reference: entry.reference,
            delta_bytes: Number(entry.delta_bytes),
            delta_gb: bytesToGb(Number(entry.delta_bytes)),
            note: entry.note,
            created_at: iso(entry.created_at),
          })),
          page: query.ledger_page,
          per_page: CUSTOMER_PAGE_ROWS,
          total: Number(ledgerTotal[0]?.total ?? 0),
        },
        orders: {
          data: orders.map((order) => toAdminOrder(order, row.email)),
          page: query.orders_page,
          per_page: CUSTOMER_PAGE_ROWS,
          total: Number(ordersTotal[0]?.total ?? 0),
        },
        subusers,
      };
    },

    /**
     * Disables (or enables) the account in one transaction with its audit row. The users_changed
     * trigger announces it to every gateway; `announce` makes every API instance drop the
     * account's cached sessions and token and re-check its sockets. Answers whether it changed.
     */
    async setDisabled(actor: string, id: string, disabled: boolean, note?: string) {
      return db.transaction(async (tx) => {
        const before = await tx.execute<CustomerRow>(
          sql`SELECT ${sql.raw(CUSTOMER_COLUMNS)} FROM users WHERE id = ${id} FOR UPDATE`,
        );
        const current = before.rows[0];
        if (!current) throw customerNotFound();
        if ((current.disabled_at !== null) === disabled)
          return { changed: false, customer: toCustomer(current) };
        const after = await tx.execute<CustomerRow>(sql`
          UPDATE users SET disabled_at = ${disabled ? sql`now()` : null}
           WHERE id = ${id} RETURNING ${sql.raw(CUSTOMER_COLUMNS)}`);
        const updated = after.rows[0] as CustomerRow;
        await appendAudit(tx, {
          actor,
          action: disabled ? "customer.disable" : "customer.enable",
          subjectType: "account",
          subjectId: id,
          before: { disabled_at: toCustomer(current).disabled_at },
          after: { disabled_at: toCustomer(updated).disabled_at },
          note: note ?? null,
        });
        await announce(tx, id);
        return { changed: true, customer: toCustomer(updated) };
      });
    },

    /** Signs the account out everywhere (its API token keeps working); the sessions trigger
     * closes its sockets on every instance. */
    async revokeSessions(actor: string, id: string, note?: string) {
      await find(id);
      return db.transaction(async (tx) => {
        const revoked = await tx.execute<{ id: string }>(sql`
          UPDATE sessions SET revoked_at = now()
           WHERE user_id = ${id} AND revoked_at IS NULL AND expires_at > now() RETURNING id`);
        const count = revoked.rows.length;
        await appendAudit(tx, {
          actor,
          action: "customer.revoke_sessions",
          subjectType: "account",
          subjectId: id,
          before: { active_sessions: count },
          after: { active_sessions: 0 },
          note: note ?? null,
        });
        return count;
      });
    },
  };
}

export type CustomersService = ReturnType<typeof createCustomersService>;
