import type { DealStatus, PAYOUT_STATUSES } from "@bytetoll/contracts";
import { statusTable } from "../../lib/status-table.ts";

/**
 * THE moves a deal's status may make. A deal starts pending (or live, when its start has passed);
 * it goes live at its start, ends expired at its end unless the operator cancelled it first, and a
 * group buy whose deposits reach the target is activated while live. Every end is final.
 */
export const DEAL_STATUS = statusTable<DealStatus>("deal", {
  pending: ["live", "expired", "cancelled"],
  live: ["activated", "expired", "cancelled"],
  activated: [],
  expired: [],
  cancelled: [],
});

export const DEPOSIT_STATUSES = ["held", "credited", "refundable", "paid_out", "reversed"] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/**
 * THE moves a group-buy deposit's status may make. Held money is credited at activation, owed
 * back when the deal ends unmet (refundable, or paid_out at once to a known refund address), or
 * withdrawn by its owner (paid_out). A failed payout hands its deposits back (refundable). The
 * provider's refund or chargeback of all of it reverses a deposit not yet carried by a payout; a
 * part of it leaves the status as it is.
 */
export const DEPOSIT_STATUS = statusTable<DepositStatus>("deposit", {
  held: ["held", "credited", "refundable", "paid_out", "reversed"],
  credited: ["credited", "reversed"],
  refundable: ["refundable", "paid_out", "reversed"],
  paid_out: ["refundable"],
  reversed: [],
});

export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** THE moves a payout's status may make: the operator marks a pending one sent or failed, once. */
export const PAYOUT_STATUS = statusTable<PayoutStatus>("payout", {
  pending: ["sent", "failed"],
  sent: [],
  failed: [],
});
