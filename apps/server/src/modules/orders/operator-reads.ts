import type { AdminOrdersQuery } from "@bytetoll/contracts";
import { type Database, schema } from "@bytetoll/db";
import { and, count, desc, eq, gte, inArray, like, lt } from "drizzle-orm";
import { storedStatuses } from "./order-status.ts";

/** The operator console's reads of orders, each with its customer's e-mail; the admin module
 * composes them (docs/architecture.md). */

const DAY_MS = 86_400_000;

/** One page of orders, newest first, filtered as the console asks (`emailPattern` is a LIKE
 * pattern on the customer's e-mail), and how many match in all. */
export async function ordersForOperator(
  database: Database,
  query: AdminOrdersQuery,
  emailPattern: string | null,
) {
  const { orders, users } = schema;
  const where = and(
    emailPattern ? like(users.email, emailPattern) : undefined,
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
  return { rows, total: Number(totals[0]?.total ?? 0) };
}

/** One order and its customer's e-mail, if it exists. */
export async function orderWithEmail(database: Database, id: string) {
  const [row] = await database.db
    .select({ order: schema.orders, email: schema.users.email })
    .from(schema.orders)
    .innerJoin(schema.users, eq(schema.users.id, schema.orders.userId))
    .where(eq(schema.orders.id, id));
  return row;
}

/** One page of the account's orders, newest first, and how many it has in all. */
export async function accountOrdersPage(
  database: Database,
  userId: string,
  pageRows: number,
  offset: number,
) {
  const [rows, totals] = await Promise.all([
    database.db
      .select()
      .from(schema.orders)
      .where(eq(schema.orders.userId, userId))
      .orderBy(desc(schema.orders.createdAt), desc(schema.orders.id))
      .limit(pageRows)
      .offset(offset),
    database.query<{ total: string }>("SELECT count(*) AS total FROM orders WHERE user_id = $1", [userId]),
  ]);
  return { rows, total: Number(totals[0]?.total ?? 0) };
}

/**
 * Revenue per UTC day and provider since `since`: each order's price × the share of its bytes
 * credited and not reversed, on the day it was paid (so partial payments and refunds count as
 * they stand).
 */
export async function revenueByDay(database: Database, since: string) {
  return database.query<{ day: string; provider: string; cents: string; orders: string }>(
    `SELECT to_char(coalesce(paid_at, updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, provider,
              sum(round(amount_cents::numeric * (credited_bytes - reversed_bytes) / bytes)) AS cents,
              count(*) AS orders
         FROM orders
        WHERE credited_bytes > 0 AND bytes > 0 AND coalesce(paid_at, updated_at) >= $1::timestamptz
        GROUP BY 1, 2`,
    [since],
  );
}

/** The customer's e-mail of each of these order ids (as text) that names an order. */
export async function orderOwnerEmails(database: Database, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await database.query<{ id: string; email: string }>(
    `SELECT o.id::text AS id, u.email FROM orders o JOIN users u ON u.id = o.user_id
      WHERE o.id::text = ANY($1::text[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.email]));
}
