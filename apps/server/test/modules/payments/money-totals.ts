import { decodeDealId, SOLD_OUT_LIST_PRICE_NOTE } from "@bytetoll/contracts";
import type { TestDatabase } from "@bytetoll/db/testing";

/** Bytes one cent of a group-buy deposit buys at the test deals' $0.50 per GB. */
const BYTES_PER_DEPOSIT_CENT = 2e7;

/** Orders whose row and ledger disagree: credited or taken back other than their entries say,
 * more taken back than credited or credited than bought, credited while not paid, a deposit
 * order credited as a purchase, or all of a credit taken back without the order refunded. */
async function orderMismatches(database: TestDatabase, users: string[]) {
  return database.query(
    `SELECT * FROM (
       SELECT o.id, o.payment_status, o.bytes, o.credited_bytes AS credited, o.reversed_bytes AS reversed,
              (o.deal_id IS NOT NULL AND o.quantity IS NULL) AS deposit,
              (SELECT coalesce(sum(delta_bytes), 0) FROM ledger_entries
                WHERE kind = 'purchase' AND reference LIKE 'order:' || o.id || ':%') AS purchases,
              (SELECT coalesce(sum(delta_bytes), 0) FROM ledger_entries
                WHERE kind IN ('refund', 'chargeback')
                  AND (reference = 'order:' || o.id OR reference LIKE 'order:' || o.id || ':%')) AS reversals
         FROM orders o WHERE o.user_id = ANY($1::uuid[])) AS o
      WHERE purchases <> credited OR reversals <> -reversed OR reversed > credited OR credited > bytes
         OR (credited > 0 AND payment_status NOT IN ('paid', 'refunded'))
         OR (deposit AND credited <> 0)
         OR (credited > 0 AND reversed = credited AND payment_status <> 'refunded')`,
    [users],
  );
}

/** A flash sale whose reserved stock is not what its unreleased reservations hold, or more than
 * it has; and stock given back from under an order credited at the sale's price. */
async function stockMismatches(database: TestDatabase, dealId: number) {
  const deal = await database.query(
    `SELECT d.reserved_gb, d.target_gb,
            (SELECT coalesce(sum(gb), 0) FROM deal_reservations WHERE deal_id = d.id AND NOT released) AS held
       FROM deals d WHERE d.id = $1`,
    [dealId],
  );
  const wrong = deal.filter(
    (row) => Number(row.reserved_gb) !== Number(row.held) || Number(row.reserved_gb) > Number(row.target_gb),
  );
  const givenBack = await database.query(
    `SELECT r.order_id FROM deal_reservations r JOIN orders o ON o.id = r.order_id
      WHERE r.deal_id = $1 AND r.released AND o.credited_bytes > 0
        AND (o.note IS NULL OR o.note NOT LIKE $2 || '%')`,
    [dealId, SOLD_OUT_LIST_PRICE_NOTE],
  );
  return [...wrong, ...givenBack];
}

/** The group buy's money, each cent in exactly one place: paid in = held + credited + owed back
 * + paid out + given back by the provider; the ledger holds each credited deposit once; what the
 * payouts carry is what was paid out; the deal counts what is held or credited. */
async function depositMismatches(database: TestDatabase, dealId: number) {
  const [row] = await database.query<Record<string, string>>(
    `SELECT
       (SELECT coalesce(sum(o.amount_cents), 0) FROM orders o JOIN deal_deposits d ON d.order_id = o.id WHERE d.deal_id = $1) AS paid_in,
       (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'held'), 0) FROM deal_deposits WHERE deal_id = $1) AS held,
       (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'credited'), 0) FROM deal_deposits WHERE deal_id = $1) AS credited,
       (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'refundable'), 0) FROM deal_deposits WHERE deal_id = $1) AS refundable,
       (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'paid_out'), 0) FROM deal_deposits WHERE deal_id = $1) AS paid_out,
       (SELECT coalesce(sum(refunded_cents), 0) FROM deal_deposits WHERE deal_id = $1) AS refunded,
       (SELECT coalesce(sum(amount_cents) FILTER (WHERE status IN ('pending', 'sent')), 0) FROM payouts WHERE deal_id = $1) AS payouts_live,
       (SELECT coalesce(sum(delta_bytes), 0) FROM ledger_entries WHERE reference LIKE 'deal-deposit:%'
          AND split_part(reference, ':', 2) IN (SELECT order_id::text FROM deal_deposits WHERE deal_id = $1)) AS ledger_bytes,
       (SELECT deposited_cents FROM deals WHERE id = $1) AS deposited`,
    [dealId],
  );
  const n = (key: string) => Number(row?.[key] ?? 0);
  const broken: string[] = [];
  const inPlaces = n("held") + n("credited") + n("refundable") + n("paid_out") + n("refunded");
  if (n("paid_in") !== inPlaces) broken.push(`paid in ${n("paid_in")} ≠ ${inPlaces} in places`);
  if (n("ledger_bytes") !== n("credited") * BYTES_PER_DEPOSIT_CENT)
    broken.push(`ledger ${n("ledger_bytes")} bytes ≠ ${n("credited")} cents credited`);
  if (n("paid_out") !== n("payouts_live"))
    broken.push(`paid out ${n("paid_out")} ≠ payouts ${n("payouts_live")}`);
  if (n("deposited") !== n("held") + n("credited"))
    broken.push(`deposited ${n("deposited")} ≠ held + credited`);
  return broken;
}

/** What the orders' and deposits' own records say each account earned (credited less taken
 * back), beside its balance. */
async function balancesAndEarnings(database: TestDatabase, users: string[]) {
  const rows = await database.query<{ id: string; balance: string; orders: string; deposits: string }>(
    `SELECT u.id, u.balance_bytes AS balance,
            (SELECT coalesce(sum(credited_bytes - reversed_bytes), 0) FROM orders WHERE user_id = u.id) AS orders,
            (SELECT coalesce(sum(delta_bytes), 0) FROM ledger_entries
              WHERE user_id = u.id AND reference LIKE 'deal-deposit:%') AS deposits
       FROM users u WHERE u.id = ANY($1::uuid[])`,
    [users],
  );
  return {
    balances: new Map(rows.map((row) => [row.id, Number(row.balance)])),
    earned: new Map(rows.map((row) => [row.id, Number(row.orders) + Number(row.deposits)])),
  };
}

/** Everything the money-paths property checks, read once every operation has finished. */
export async function moneyTotals(database: TestDatabase, users: string[], deals: [string, string]) {
  const [flash, group] = deals.map((id) => decodeDealId(id)) as [number, number];
  return {
    orderMismatches: await orderMismatches(database, users),
    stockMismatches: await stockMismatches(database, flash),
    depositMismatches: await depositMismatches(database, group),
    ...(await balancesAndEarnings(database, users)),
  };
}
