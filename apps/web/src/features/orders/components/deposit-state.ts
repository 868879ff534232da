import type { HistoryEntry, Payout } from "@bytetoll/contracts";
import type { Order } from "../api/order.ts";
import { orderKind } from "./order-kind.ts";

/** What became of a paid group-buy deposit, from what the page has: "Withdrawn" once a withdrawal
 * of its deal was asked for after it (and did not fail), "Credited" once its deal activated and
 * the history shows the data it bought. Null for anything else (the order's own status stands). */
export function depositState(
  order: Order,
  entries: readonly HistoryEntry[],
  payouts: readonly Payout[],
): "Withdrawn" | "Credited" | null {
  if (orderKind(order) !== "Deposit" || order.payment_status !== "paid") return null;
  const credited = entries.some((entry) => entry.kind === "deposit" && entry.order_id === order.order_id);
  if (credited) return "Credited";
  const withdrawn = payouts.some(
    (payout) =>
      payout.kind === "withdrawal" &&
      payout.status !== "failed" &&
      payout.deal_id === order.deal_id &&
      payout.created_at >= order.created_at,
  );
  return withdrawn ? "Withdrawn" : null;
}

/** A group buy's credit is noted "Group buy <deal id>: <title>"; the id means nothing to a
 * customer, and a title that names itself a group buy is not told so twice ("Group buy: Group
 * buy: together to 100 GB"). */
export function ledgerNoteText(note: string | null): string | null {
  if (note === null) return null;
  const titled = /^Group buy [^\s:]+: (.*)$/s.exec(note);
  if (!titled) return note;
  const title = titled[1] as string;
  return /^group buy\b/i.test(title) ? title : `Group buy: ${title}`;
}
