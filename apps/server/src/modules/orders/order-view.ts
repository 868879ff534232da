import { bytesToGb, centsToUsd } from "@bytetoll/contracts";
import type { schema } from "@bytetoll/db";
import { asOrderStatus, isOpen, publicStatus } from "./order-status.ts";
import type { Network, Order } from "./schemas.ts";

export type OrderRow = typeof schema.orders.$inferSelect;

const EXPLORERS: Record<Network, string> = {
  solana: "https://solscan.io/tx/",
  polygon: "https://polygonscan.com/tx/",
  base: "https://basescan.org/tx/",
  ethereum: "https://etherscan.io/tx/",
};

/** docs/product.md#data-shapes: an empty hash or the provider's DUMMY_TX_ID placeholder has no explorer page. */
export function transactionUrl(network: string | null, payinHash: string | null): string | null {
  if (!network || !payinHash || payinHash === "DUMMY_TX_ID") return null;
  const explorer = EXPLORERS[network as Network];
  return explorer ? `${explorer}${encodeURIComponent(payinHash)}` : null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The one JSON shape of an order (decision 003): API, realtime and CLI all print this. */
export function toOrderView(row: OrderRow): Order {
  return {
    order_id: row.id,
    user_id: row.userId,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    expires_at: iso(row.expiresAt),
    paid_at: row.paidAt ? iso(row.paidAt) : null,
    note: row.note,
    // An order awaiting its method reads as crypto, the create call's default method.
    method: (row.method ?? "crypto") as Order["method"],
    network_type: row.networkType as Order["network_type"],
    amount_usd: centsToUsd(Number(row.amountCents)),
    gb: bytesToGb(Number(row.bytes)),
    payment_status: publicStatus(asOrderStatus(row.paymentStatus)),
    provider: row.provider as Order["provider"],
    pay_address: row.payAddress,
    qr_code: row.qrCode,
    price_amount: row.priceAmountCents === null ? null : centsToUsd(Number(row.priceAmountCents)),
    payment_token: row.paymentToken,
    payin_hash: row.payinHash,
    transaction_url: transactionUrl(row.networkType, row.payinHash),
    balance_gb_after: row.balanceBytesAfter === null ? null : bytesToGb(Number(row.balanceBytesAfter)),
    stripe_redirect_url: row.providerRedirectUrl,
    deal_id: row.dealId,
    quantity: row.quantity,
    origin: row.origin as Order["origin"],
  };
}

/** Turns a changed row into its view and hands it to `publish` (the realtime order event). */
export function orderPublisher(publish: (order: Order) => void) {
  return (row: OrderRow): Order => {
    const view = toOrderView(row);
    publish(view);
    return view;
  };
}

/** An open order (awaiting its method or its payment) past its time: reads and payment choices
 * treat it as expired. */
export const isOverdue = (row: OrderRow, now = Date.now()) =>
  isOpen(row.paymentStatus) && new Date(row.expiresAt).getTime() <= now;
