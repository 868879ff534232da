import { randomUUID } from "node:crypto";
import {
  type AccountsQuery,
  type AdminAccount,
  type AdminOrder,
  type AdminOrdersQuery,
  bytesToGb,
  type CreditRequest,
  gbToBytes,
} from "@bytetoll/contracts";
import { adjustBalance, type Database, schema } from "@bytetoll/db";
import { and, count, desc, eq, gte, inArray, like, lt, sql } from "drizzle-orm";
import { AppError } from "../../errors.ts";
import { type OrderRow, storedStatuses, toOrderView } from "../orders/index.ts";
import { appendAudit } from "./audit.ts";

const DAY_MS = 86_400_000;

/** The customer's order shape plus who, the provider's payment id and how much reached the ledger. */
export const toAdminOrder = (row: OrderRow, email: string): AdminOrder => ({
  ...toOrderView(row),
  email,
  provider_payment_id: row.providerPaymentId,
  credited_gb: bytesToGb(Number(row.creditedBytes)),
  reversed_gb: bytesToGb(Number(row.reversedBytes)),
});

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
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`).toLowerCase()}%`;

const KEY_REUSED =
  "This Idempotency-Key was already used for a different credit (another customer, amount or note). Use a new key for a new credit.";

/** A retry is the same credit: same customer, same bytes, same note as the entry its key made. */
async function assertSameCredit(
  tx: Pick<Database["db"], "execute">,
  reference: string,
  credit: { userId: string; deltaBytes: number; note: string },
): Promise<void> {
  const { rows } = await tx.execute<{ user_id: string; delta_bytes: string | number; note: string | null }>(
    sql`SELECT user_id, delta_bytes, note FROM ledger_entries WHERE kind = 'adjustment' AND reference = ${reference}`,
  );
  const first = rows[0];
  const same =
    first?.user_id === credit.userId &&
    Number(first.delta_bytes) === credit.deltaBytes &&
    (first.note ?? "") === credit.note;
  if (!same) throw new AppError(422, KEY_REUSED, "idempotency_key_reused");
}

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

  async function accountById(id: string): Promise<AccountRow> {
    const [row] = await database.query<AccountRow>(
      "SELECT id, email, balance_bytes, created_at FROM users WHERE id = $1",
      [id],
    );
    if (!row) throw new AppError(404, "Account not found", "not_found");
    return row;
  }

  /** An `adjustment` ledger entry and its audit row, in one transaction. `key` makes a retried
   * request a no-op (same reference, no second audit row); the same key with another customer,
   * amount or note is refused (422) rather than silently taken as done. */
  async function creditAccount(actor: string, user: AccountRow, gb: number, note: string, key?: string) {
    const deltaBytes = gbToBytes(gb);
    const result = await database.db.transaction(async (tx) => {
      const applied = await adjustBalance(tx, {
        userId: user.id,
        key: key ?? randomUUID(),
        deltaBytes,
        note,
      });
      if (!applied.applied)
        await assertSameCredit(tx, applied.reference, { userId: user.id, deltaBytes, note });
      if (applied.applied && applied.balanceBytes !== null) {
        await appendAudit(tx, {
          actor,
          action: gb > 0 ? "customer.credit" : "customer.debit",
          subjectType: "account",
          subjectId: user.id,
          before: { balance_bytes: applied.balanceBytes - deltaBytes },
          after: { balance_bytes: applied.balanceBytes, reference: applied.reference },
          note,
        });
      }
      return applied;
    });
    return {
      message: result.applied ? "Balance adjusted" : "Already applied",
      account: toAccount(await accountById(user.id)),
      delta_bytes: result.applied ? deltaBytes : 0,
      reference: result.reference,
    };
  }

  return {
    /** POST /admin/credits and the CLI: by e-mail. */
    async credit(actor: string, input: CreditRequest, key?: string) {
      return creditAccount(actor, await accountByEmail(input.email), input.gb, input.note, key);
    },

    /** POST /admin/customers/{id}/credit: by account id. */
    async creditById(actor: string, id: string, gb: number, note: string, key?: string) {
      return creditAccount(actor, await accountById(id), gb, note, key);
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

    async orders(query: AdminOrdersQuery): Promise<{ data: AdminOrder[]; total: number }> {
      const { orders, users } = schema;
      const where = and(
        query.email ? like(users.email, likePattern(query.email)) : undefined,
        query.status ? inArray(orders.paymentStatus, storedStatuses(query.status)) : undefined,
        query.method ? eq(orders.method, query.method) : undefined,
        query.provider ? eq(orders.provider, query.provider) : undefined,
        query.from ? gte(orders.createdAt, new Date(`${query.from}T00:00:00Z`)) : undefined,
        query.to ? lt(orders.createdAt, new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS)) : undefined,
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
        data: rows.map((row) => toAdminOrder(row.order, row.email)),
        total: Number(totals[0]?.total ?? 0),
      };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
