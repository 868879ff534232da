import { type Db, schema } from "@bytetoll/db";
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { OrderRow } from "./order-view.ts";

const { orders } = schema;

/** An order awaiting its method is listed with the crypto ones, as the API shows it. */
function prepareListPage(db: Db, byMethod: boolean) {
  const where = byMethod
    ? and(
        eq(orders.userId, sql.placeholder("userId")),
        eq(sql`coalesce(${orders.method}, 'crypto')`, sql.placeholder("method")),
      )
    : eq(orders.userId, sql.placeholder("userId"));
  const page = db
    .$with("page")
    .as(
      db
        .select({ pageId: orders.id })
        .from(orders)
        .where(where)
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset")),
    );
  return db
    .with(page)
    .select({ order: orders, total: sql<string | number>`(SELECT count(*) FROM ${orders} WHERE ${where})` })
    .from(page)
    .innerJoin(orders, eq(orders.id, page.pageId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .prepare(byMethod ? "orders_page_by_method" : "orders_page");
}

/** A row of the history page before its orders are read in full: an order (`order_id`) or a
 * ledger entry that is not an order's purchase credit. */
export interface HistoryRow {
  kind: string;
  createdAt: Date;
  orderId: string | null;
  entryId: number | null;
  deltaBytes: number | null;
  note: string | null;
  reference: string | null;
}

/** Ledger kinds the history shows beside the orders (purchases are the orders themselves, usage
 * is the Usage page). */
export const HISTORY_LEDGER_KINDS = ["bonus", "adjustment", "deposit", "refund", "chargeback"];

/** The customer's lists: the orders page and the history page (orders and ledger entries). */
export function createOrderLists(db: Db) {
  const listPage = prepareListPage(db, false);
  const listPageByMethod = prepareListPage(db, true);
  return {
    /**
     * One page of the account's history: its orders and its ledger entries of HISTORY_LEDGER_KINDS
     * in one list, newest first. The order is total (time, then orders before ledger entries of
     * the same instant, then id), so consecutive pages never show a row twice.
     */
    async historyPage(
      userId: string,
      options: { limit: number; offset: number },
    ): Promise<{ rows: HistoryRow[]; total: number }> {
      const kinds = sql.join(
        HISTORY_LEDGER_KINDS.map((kind) => sql`${kind}`),
        sql`, `,
      );
      const [page, counted] = await Promise.all([
        db.execute<{
          kind: string;
          created_at: Date | string;
          order_id: string | null;
          entry_id: string | number | null;
          delta_bytes: string | number | null;
          note: string | null;
          reference: string | null;
        }>(sql`
          SELECT kind, created_at, order_id, entry_id, delta_bytes, note, reference FROM (
            SELECT 'order' AS kind, created_at, id AS order_id, NULL::bigint AS entry_id,
                   NULL::bigint AS delta_bytes, NULL::text AS note, NULL::text AS reference,
                   1 AS rank, id::text AS tie
              FROM orders WHERE user_id = ${userId}
            UNION ALL
            SELECT kind, created_at, NULL::uuid, id, delta_bytes, note, reference,
                   0, lpad(id::text, 20, '0')
              FROM ledger_entries WHERE user_id = ${userId} AND kind IN (${kinds})
          ) AS history
          ORDER BY created_at DESC, rank DESC, tie DESC
          LIMIT ${options.limit} OFFSET ${options.offset}`),
        db.execute<{ total: string | number }>(sql`
          SELECT (SELECT count(*) FROM orders WHERE user_id = ${userId})
               + (SELECT count(*) FROM ledger_entries WHERE user_id = ${userId} AND kind IN (${kinds}))
               AS total`),
      ]);
      return {
        rows: page.rows.map((row) => ({
          kind: row.kind,
          createdAt: new Date(row.created_at),
          orderId: row.order_id,
          entryId: row.entry_id === null ? null : Number(row.entry_id),
          deltaBytes: row.delta_bytes === null ? null : Number(row.delta_bytes),
          note: row.note,
          reference: row.reference,
        })),
        total: Number(counted.rows[0]?.total ?? 0),
      };
    },

    /** One page and the total in one round trip, as a prepared statement (the history is the
     * most-read list). The page is chosen on the (user_id, created_at, id) index and only its
     * rows are read in full: counting over full rows would drag every QR code along. */
    async listForUser(
      userId: string,
      options: { limit: number; offset: number; method?: "crypto" | "card" | undefined },
    ): Promise<{ rows: OrderRow[]; total: number }> {
      const params = { userId, limit: options.limit, offset: options.offset };
      const page = options.method
        ? await listPageByMethod.execute({ ...params, method: options.method })
        : await listPage.execute(params);
      if (page.length > 0) return { rows: page.map((row) => row.order), total: Number(page[0]?.total ?? 0) };
      const where = options.method
        ? and(eq(orders.userId, userId), eq(sql`coalesce(${orders.method}, 'crypto')`, options.method))
        : eq(orders.userId, userId);
      const [counted] = await db.select({ total: count() }).from(orders).where(where);
      return { rows: [], total: Number(counted?.total ?? 0) };
    },
  };
}
