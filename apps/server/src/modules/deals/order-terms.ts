import {
  BYTES_PER_GB,
  DEAL_UNAVAILABLE,
  FLASH_SALE_UNIT_GB,
  flashSaleTotalUsd,
  MAX_ORDER_USD,
  MIN_DEPOSIT_USD,
  usdToCents,
} from "@bytetoll/contracts";
import { AppError } from "../../errors.ts";
import { dealPrice, depositBytes } from "./deal-view.ts";
import type { DealRow } from "./repository.ts";

/** What an order for a deal costs and buys. */
export interface DealTerms {
  dealId: number;
  /** The canonical encoded id, stored on the order. */
  encodedId: string;
  dealType: "flash_sale" | "group_buy";
  amountCents: number;
  bytes: number;
  quantity: number | null;
  /** Flash sale: the stock the order takes. */
  reserveGb: number;
}

export interface DealOrderInput {
  amount?: number | undefined;
  quantity?: number | undefined;
}

export const dealUnavailable = () => new AppError(404, DEAL_UNAVAILABLE, "deal_unavailable");
const badRequest = (message: string) => new AppError(400, message, "bad_deal_order");

/** The quantity whose total is `amount` USD (the checkout link carries the total), if any. */
function quantityFor(amount: number | undefined, price: number): number | undefined {
  if (amount === undefined) return undefined;
  const quantity = Math.max(1, Math.round(amount / (price * FLASH_SALE_UNIT_GB)));
  return flashSaleTotalUsd(quantity, price) === amount ? quantity : undefined;
}

/** A flash sale: `quantity` units of 1,000 GB (or the quantity an amount is the total of); an
 * amount sent with a quantity must be its total. */
function flashSaleTerms(deal: DealRow, input: DealOrderInput) {
  const quantity = input.quantity ?? quantityFor(input.amount, dealPrice(deal));
  if (quantity === undefined) {
    throw badRequest(
      input.amount === undefined
        ? "quantity is required for a flash sale"
        : `amount must be a whole number of ${FLASH_SALE_UNIT_GB} GB units at this deal's price`,
    );
  }
  const totalUsd = flashSaleTotalUsd(quantity, dealPrice(deal));
  if (totalUsd > MAX_ORDER_USD)
    throw badRequest(`quantity is too large: at most ${MAX_ORDER_USD} USD per order`);
  if (totalUsd < 1) throw badRequest("quantity is too small: an order is at least 1 USD");
  if (input.amount !== undefined && usdToCents(input.amount) !== usdToCents(totalUsd)) {
    throw badRequest(`amount must be ${totalUsd} USD for ${quantity} × ${FLASH_SALE_UNIT_GB} GB`);
  }
  const reserveGb = quantity * FLASH_SALE_UNIT_GB;
  if (Number(deal.reservedGb) + reserveGb > Number(deal.targetGb)) throw soldOut(deal);
  return { amountCents: usdToCents(totalUsd), bytes: reserveGb * BYTES_PER_GB, quantity, reserveGb };
}

/** A group-buy deposit: whole USD, at least MIN_DEPOSIT_USD. */
function depositTerms(deal: DealRow, input: DealOrderInput) {
  if (input.quantity !== undefined) throw badRequest("quantity is only for flash sales");
  const { amount } = input;
  if (amount === undefined || !Number.isInteger(amount) || amount < MIN_DEPOSIT_USD) {
    throw badRequest(`amount must be a whole number of USD, at least ${MIN_DEPOSIT_USD}`);
  }
  const amountCents = usdToCents(amount);
  return { amountCents, bytes: depositBytes(amountCents, dealPrice(deal)), quantity: null, reserveGb: 0 };
}

export function soldOut(deal: DealRow): AppError {
  const leftUnits = Math.max(
    0,
    Math.floor((Number(deal.targetGb) - Number(deal.reservedGb)) / FLASH_SALE_UNIT_GB),
  );
  return new AppError(
    409,
    leftUnits === 0
      ? "This flash sale is sold out."
      : `Only ${leftUnits} × ${FLASH_SALE_UNIT_GB} GB of this flash sale ${leftUnits === 1 ? "is" : "are"} left.`,
    "sold_out",
  );
}

/** The terms of an order for `deal`, which must be live; bad input is a 4xx and changes nothing. */
export function dealTerms(deal: DealRow | undefined, encodedId: string, input: DealOrderInput): DealTerms {
  const live = deal && deal.status === "live" && new Date(deal.endTime).getTime() > Date.now();
  if (!deal || !live) throw dealUnavailable();
  const dealType = deal.dealType as DealTerms["dealType"];
  const terms = dealType === "flash_sale" ? flashSaleTerms(deal, input) : depositTerms(deal, input);
  return { dealId: deal.id, encodedId, dealType, ...terms };
}
