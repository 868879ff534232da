import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";

/** `refund` and `chargeback` take back (part of) an order's purchase credit; the balance may then
 * go below zero. */
export type LedgerKind = "purchase" | "bonus" | "usage" | "deposit" | "refund" | "chargeback" | "adjustment";

export interface LedgerEntryInput {
  userId: string;
  kind: LedgerKind;
  /** Unique per kind: the order id, batch id, … — replaying the same reference is a no-op. */
  reference: string;
  deltaBytes: number;
  note?: string | null;
}

/** Anything that can run a statement: the database or an open transaction. */
export type SqlExecutor = Pick<Db, "execute">;

/** The sign each kind's delta must have (the database checks the same, migration 0027). */
const SIGN_OF: Record<LedgerKind, "credit" | "debit" | "either"> = {
  purchase: "credit",
  bonus: "credit",
  deposit: "credit",
  usage: "debit",
  refund: "debit",
  chargeback: "debit",
  adjustment: "either",
};

/** A ledger write its caller got wrong: the operation stops (a logged 500) and nothing is
 * written. Never rounded or clamped into something writable. */
export class LedgerAssertionError extends Error {
  override name = "LedgerAssertionError";
}

/** Whole bytes, and the sign the entry's kind requires. */
export function assertLedgerEntry(entry: Pick<LedgerEntryInput, "kind" | "deltaBytes" | "reference">): void {
  const { kind, deltaBytes, reference } = entry;
  const sign = SIGN_OF[kind];
  if (sign === undefined) throw new LedgerAssertionError(`unknown ledger kind ${kind} (${reference})`);
  if (!Number.isSafeInteger(deltaBytes)) {
    throw new LedgerAssertionError(`${kind} ${reference}: ${deltaBytes} is not a whole number of bytes`);
  }
  const ok = sign === "credit" ? deltaBytes > 0 : sign === "debit" ? deltaBytes < 0 : true;
  if (!ok) throw new LedgerAssertionError(`${kind} ${reference}: a ${sign} cannot be ${deltaBytes} bytes`);
}

/**
 * Appends one ledger entry and moves the balance by its delta in a single SQL statement, so the
 * invariant balance = sum(entries) holds under any concurrency and a replay changes nothing.
 * Returns the new balance, or `applied: false` when the (kind, reference) was already recorded.
 */
export async function applyLedgerEntry(
  executor: SqlExecutor,
  entry: LedgerEntryInput,
): Promise<{ applied: boolean; balanceBytes: number | null }> {
  assertLedgerEntry(entry);
  const result = await executor.execute<{ balance_bytes: string | number }>(sql`
    WITH entry AS (
      INSERT INTO ledger_entries (user_id, kind, reference, delta_bytes, note)
      VALUES (${entry.userId}, ${entry.kind}, ${entry.reference}, ${entry.deltaBytes}, ${entry.note ?? null})
      ON CONFLICT (kind, reference) DO NOTHING
      RETURNING user_id, delta_bytes
    )
    UPDATE users SET balance_bytes = users.balance_bytes + entry.delta_bytes
    FROM entry WHERE users.id = entry.user_id
    RETURNING users.balance_bytes`);
  const row = result.rows[0];
  return row
    ? { applied: true, balanceBytes: Number(row.balance_bytes) }
    : { applied: false, balanceBytes: null };
}

/** What a named writer did: the new balance (or `applied: false` for a replay) and the reference
 * it wrote under. */
export type LedgerResult = Awaited<ReturnType<typeof applyLedgerEntry>> & { reference: string };

async function write(executor: SqlExecutor, entry: LedgerEntryInput): Promise<LedgerResult> {
  return { ...(await applyLedgerEntry(executor, entry)), reference: entry.reference };
}

// The named ways money and data move. Each builds its own (kind, reference), so a replay of the
// same event is recognised wherever it comes from; callers never spell a reference themselves.

/** An order paid: the bytes newly credited, up to `creditedAfter` bytes in all. */
export function creditPurchase(
  executor: SqlExecutor,
  entry: { userId: string; orderId: string; creditedAfter: number; deltaBytes: number },
): Promise<LedgerResult> {
  return write(executor, {
    userId: entry.userId,
    kind: "purchase",
    reference: `order:${entry.orderId}:${entry.creditedAfter}`,
    deltaBytes: entry.deltaBytes,
    note: `Order ${entry.orderId}`,
  });
}

export type Reversal = "refund" | "chargeback";

const reversalNote = (kind: Reversal) => (kind === "refund" ? "Refund" : "Chargeback");

/**
 * A refund or chargeback of an order's purchase credit, `deltaBytes` taken back. Refunds are keyed
 * by how much is taken back in all (`reversedAfter`), so partial refunds add up and a replay is a
 * no-op; a chargeback happens once per order.
 */
export function reversePurchase(
  executor: SqlExecutor,
  entry: { userId: string; orderId: string; kind: Reversal; reversedAfter: number; deltaBytes: number },
): Promise<LedgerResult> {
  const reference =
    entry.kind === "chargeback" ? `order:${entry.orderId}` : `order:${entry.orderId}:${entry.reversedAfter}`;
  return write(executor, {
    userId: entry.userId,
    kind: entry.kind,
    reference,
    deltaBytes: -entry.deltaBytes,
    note: `${reversalNote(entry.kind)} of order ${entry.orderId}`,
  });
}

/** The free data a new account gets, once per user. */
export function grantBonus(
  executor: SqlExecutor,
  entry: { userId: string; bytes: number; note: string },
): Promise<LedgerResult> {
  return write(executor, {
    userId: entry.userId,
    kind: "bonus",
    reference: `free-gb:${entry.userId}`,
    deltaBytes: entry.bytes,
    note: entry.note,
  });
}

/** An operator's correction; `key` (an idempotency key or a fresh id) makes it happen once. */
export function adjustBalance(
  executor: SqlExecutor,
  entry: { userId: string; key: string; deltaBytes: number; note?: string | null },
): Promise<LedgerResult> {
  return write(executor, {
    userId: entry.userId,
    kind: "adjustment",
    reference: `admin:${entry.key}`,
    deltaBytes: entry.deltaBytes,
    note: entry.note,
  });
}

/** The gateway's metered traffic of one flush batch, `bytes` taken from the balance. */
export function debitUsage(
  executor: SqlExecutor,
  entry: { userId: string; batchId: string; bytes: number },
): Promise<LedgerResult> {
  return write(executor, {
    userId: entry.userId,
    kind: "usage",
    reference: `${entry.batchId}:${entry.userId}`,
    deltaBytes: -entry.bytes,
  });
}

const depositReference = (orderId: string) => `deal-deposit:${orderId}`;

/** A group-buy deposit turned into data when its deal activates. */
export function creditDeposit(
  executor: SqlExecutor,
  entry: { userId: string; orderId: string; bytes: number; note: string },
): Promise<LedgerResult> {
  return write(executor, {
    userId: entry.userId,
    kind: "deposit",
    reference: depositReference(entry.orderId),
    deltaBytes: entry.bytes,
    note: entry.note,
  });
}

/**
 * A credited group-buy deposit given back (in part) by its provider: the `bytes` that part bought
 * are taken back. Refunds are keyed by the cents given back in all (`refundedAfterCents`), so
 * partial refunds add up and a replay is a no-op; a chargeback happens once per deposit.
 */
export function reverseDeposit(
  executor: SqlExecutor,
  entry: { userId: string; orderId: string; kind: Reversal; bytes: number; refundedAfterCents: number },
): Promise<LedgerResult> {
  const reference = depositReference(entry.orderId);
  return write(executor, {
    userId: entry.userId,
    kind: entry.kind,
    reference: entry.kind === "chargeback" ? reference : `${reference}:${entry.refundedAfterCents}`,
    deltaBytes: -entry.bytes,
    note: `${reversalNote(entry.kind)} of group-buy deposit ${entry.orderId}`,
  });
}
