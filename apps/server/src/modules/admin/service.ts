import { randomUUID } from "node:crypto";
import {
  type AccountsQuery,
  type AdminAccount,
  type AdminOrdersQuery,
  BYTES_PER_GB,
  bytesToGb,
  type CreditRequest,
} from "@bytetoll/contracts";
import { adjustBalance, type Database, schema } from "@bytetoll/db";
import { and, count, desc, eq, like } from "drizzle-orm";
import { AppError } from "../../errors.ts";
import { toOrderView } from "../orders/order-view.ts";
import type { Order } from "../orders/schemas.ts";

interface AccountRow {
  id: string;
  email: string;
  balance_bytes: string | number;
  created_at: Date | string;
}

const toAccount = (row: AccountRow): AdminAccount => ({
  id: row.id,
  email: row.email,
  balance_bytes: Number(row.balance_bytes),
  balance_gb: bytesToGb(Number(row.balance_bytes)),
  created_at: new Date(row.created_at).toISOString(),
});

/** `%` and `_` typed by an operator are literal characters, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`).toLowerCase()}%`;

/** What the operator can do (admin API and CLI share it): adjust balances, look at accounts and orders. */
export function createAdminService(database: Database) {
  async function accountByEmail(email: string): Promise<AccountRow> {
    const [row] = await database.query<AccountRow>(
      "SELECT id, email, balance_bytes, created_at FROM users WHERE email = lower($1)",
      [email.trim()],
    );
    if (!row) throw new AppError(404, "Account not found", "not_found");
    return row;
  }

  return {
    /** An `adjustment` ledger entry. `key` makes a retried request a no-op (same reference). */
    async credit(input: CreditRequest, key?: string) {
      const user = await accountByEmail(input.email);
      const deltaBytes = Math.round(input.gb * BYTES_PER_GB);
      const result = await adjustBalance(database.db, {
        userId: user.id,
        key: key ?? randomUUID(),
        deltaBytes,
        note: input.note,
      });
      const account = toAccount(await accountByEmail(input.email));
      return {
        message: result.applied ? "Balance adjusted" : "Already applied",
        account,
        delta_bytes: result.applied ? deltaBytes : 0,
        reference: result.reference,
      };
    },

    async accounts(query: AccountsQuery): Promise<{ data: AdminAccount[]; total: number }> {
      const filter = query.email ? likePattern(query.email) : null;
      const where = filter ? "WHERE email LIKE $1" : "";
      const params = filter ? [filter] : [];
      const [rows, totals] = await Promise.all([
        database.query<AccountRow>(
          `SELECT id, email, balance_bytes, created_at FROM users ${where}
            ORDER BY created_at DESC, id LIMIT ${query.per_page} OFFSET ${(query.page - 1) * query.per_page}`,
          params,
        ),
        database.query<{ total: string }>(`SELECT count(*) AS total FROM users ${where}`, params),
      ]);
      return { data: rows.map(toAccount), total: Number(totals[0]?.total ?? 0) };
    },

    async orders(query: AdminOrdersQuery): Promise<{ data: (Order & { email: string })[]; total: number }> {
      const { orders, users } = schema;
      const where = and(
        query.email ? like(users.email, likePattern(query.email)) : undefined,
        query.status ? eq(orders.paymentStatus, query.status) : undefined,
      );
      const [rows, totals] = await Promise.all([
        database.db
          .select({ order: orders, email: users.email })
          .from(orders)
          .innerJoin(users, eq(users.id, orders.userId))
          .where(where)
          .orderBy(desc(orders.createdAt), desc(orders.id))
          .limit(query.per_page)
          .offset((query.page - 1) * query.per_page),
        database.db
          .select({ total: count() })
          .from(orders)
          .innerJoin(users, eq(users.id, orders.userId))
          .where(where),
      ]);
      return {
        data: rows.map((row) => ({ ...toOrderView(row.order), email: row.email })),
        total: Number(totals[0]?.total ?? 0),
      };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
