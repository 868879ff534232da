import type { AdminPayoutsQuery, CreateDealRequest } from "@bytetoll/contracts";
import { type Database, schema, type Tx } from "@bytetoll/db";
import { and, count, desc, eq, sql } from "drizzle-orm";

/** The operator console's reads and writes of deals and payouts, which this module owns; the
 * admin module composes them (docs/architecture.md). */

/** One page of payouts, newest first, each with its customer's e-mail, and how many match in all. */
export async function payoutsForOperator(database: Database, query: AdminPayoutsQuery) {
  const { db } = database;
  const { payouts, users } = schema;
  const where = query.status ? eq(payouts.status, query.status) : undefined;
  const [rows, totals] = await Promise.all([
    db
      .select({ payout: payouts, email: users.email })
      .from(payouts)
      .innerJoin(users, eq(users.id, payouts.userId))
      .where(where)
      .orderBy(desc(payouts.createdAt), desc(payouts.id))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db.select({ total: count() }).from(payouts).where(where),
  ]);
  return { rows, total: Number(totals[0]?.total ?? 0) };
}

/** Each of these deals' deposits so far and its participants (group buys: customers holding a
 * deposit; flash sales: unreleased reservations). */
export async function dealProgress(database: Database, ids: number[]) {
  if (ids.length === 0) return [];
  return database.query<{ deal_id: number; deposited_cents: string; participants: string }>(
    `SELECT d.id AS deal_id, d.deposited_cents,
                      CASE WHEN d.deal_type = 'group_buy'
                        THEN (SELECT count(DISTINCT user_id) FROM deal_deposits
                               WHERE deal_id = d.id AND status IN ('held', 'credited'))
                        ELSE (SELECT count(*) FROM deal_reservations WHERE deal_id = d.id AND released = false)
                      END AS participants
                 FROM deals d WHERE d.id = ANY($1::int[])`,
    [ids],
  );
}

/** The deal row locked for the rest of the caller's transaction. */
export async function lockDeal(tx: Tx, id: number) {
  const [row] = await tx.select().from(schema.deals).where(eq(schema.deals.id, id)).for("update");
  return row;
}

/** Saves an operator's edit of a deal that is still pending, inside the caller's transaction;
 * answers the saved row, or nothing when it is no longer pending. */
export async function saveDealEdit(tx: Tx, id: number, next: CreateDealRequest) {
  const [saved] = await tx
    .update(schema.deals)
    .set({
      title: next.deal_title,
      description: next.deal_description,
      priceUsdPerGb: next.deal_price.toFixed(4),
      startTime: new Date(next.deal_start_time),
      endTime: new Date(next.deal_end_time),
      targetGb: next.deal_target_gb,
      updatedAt: sql`now()`,
    })
    .where(and(eq(schema.deals.id, id), eq(schema.deals.status, "pending")))
    .returning();
  return saved;
}

/** The customer's e-mail of each of these payout ids (as text) that names a payout. */
export async function payoutOwnerEmails(database: Database, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await database.query<{ id: string; email: string }>(
    `SELECT p.id::text AS id, u.email FROM payouts p JOIN users u ON u.id = p.user_id
      WHERE p.id::text = ANY($1::text[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.email]));
}
