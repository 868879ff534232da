import {
  bytesForCents,
  bytesToGb,
  centsToUsd,
  type Deal,
  type DealStatus,
  type DealType,
  encodeDealId,
  type Payout,
  usdToMicros,
} from "@bytetoll/contracts";
import type { DealRow, PayoutRow } from "./repository.ts";

const iso = (value: Date | string) => new Date(value).toISOString();

/** USD per GB of a deal. */
export const dealPrice = (row: DealRow) => Number(row.priceUsdPerGb);

/** Bytes a group-buy deposit of `amountCents` buys at `price` USD per GB: a purchase's rule
 * (rounded down, in integers — the float division gave $33 at $1.10 one byte short of 30 GB). */
export const depositBytes = (amountCents: number, price: number) =>
  bytesForCents(amountCents, usdToMicros(price));

/** What a flash sale has reserved or sold; for a group buy, the GB its counted deposits buy. */
function reservedGb(row: DealRow): number {
  if (row.dealType === "flash_sale") return Number(row.reservedGb);
  return bytesToGb(depositBytes(Number(row.depositedCents), dealPrice(row)));
}

/** The one JSON shape of a deal: API, realtime `deal.updated` and CLI. */
export function toDealView(row: DealRow): Deal {
  return {
    id: encodeDealId(row.id),
    deal_type: row.dealType as DealType,
    deal_title: row.title,
    deal_description: row.description,
    deal_price: dealPrice(row),
    status: row.status as DealStatus,
    deal_start_time: iso(row.startTime),
    deal_end_time: iso(row.endTime),
    deal_reserved_gb: reservedGb(row),
    deal_target_gb: Number(row.targetGb),
  };
}

export function toPayoutView(row: PayoutRow): Payout {
  return {
    id: row.id,
    user_id: row.userId,
    deal_id: encodeDealId(row.dealId),
    kind: row.kind as Payout["kind"],
    amount_usd: centsToUsd(Number(row.amountCents)),
    wallet_address: row.walletAddress,
    status: row.status as Payout["status"],
    tx_hash: row.txHash,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
