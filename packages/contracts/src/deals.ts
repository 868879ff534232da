import { z } from "zod";

/** Deals: flash sales and group buys. One shape everywhere: API, realtime `deal.updated`, CLI. */

export const DEAL_TYPES = ["flash_sale", "group_buy"] as const;
export type DealType = (typeof DEAL_TYPES)[number];

export const DEAL_STATUSES = ["pending", "live", "activated", "expired", "cancelled"] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];

/** A flash sale is sold in units of this many GB. */
export const FLASH_SALE_UNIT_GB = 1000;
/** A flash-sale order holds its stock this long unpaid (an ordinary order waits 60 minutes): stock
 * held by people who do not pay is stock nobody else can buy. */
export const FLASH_SALE_HOLD_MINUTES = 15;
/** Unpaid orders one account may hold in one flash sale at once. */
export const MAX_UNPAID_FLASH_SALE_ORDERS = 3;
/** The note of a flash-sale order paid after its stock went to other buyers. */
export const SOLD_OUT_LIST_PRICE_NOTE = "Sale sold out — credited at list price";
/** Group-buy deposits are whole USD from MIN_DEPOSIT_USD; the form starts at DEFAULT_DEPOSIT_USD. */
export const MIN_DEPOSIT_USD = 1;
export const DEFAULT_DEPOSIT_USD = 100;
/** Ended deals stay on the public list this long. */
export const ENDED_DEALS_SHOWN_DAYS = 7;

export const DEAL_UNAVAILABLE = "This deal is no longer available. Please check back again soon.";
export const DEAL_ORDER_UNAVAILABLE = "The deal associated with this order is no longer available.";
export const DEALS_LOAD_FAILED = "Unable to load deals. Please try again later.";
export const DEALS_EMPTY = "Check back soon for exclusive deals and discounts!";
export const WALLET_ADDRESS_REQUIRED = "Please enter a wallet address";
export const WALLET_ADDRESS_INVALID = "Please enter a valid wallet address (0x… or a Solana address)";
export const WITHDRAW_FAILED = "Failed to withdraw deposit";

/** USD for `quantity` units of a flash sale at `dealPrice` USD per GB: rounded, never below 0. */
export function flashSaleTotalUsd(quantity: number, dealPrice: number): number {
  return Math.max(0, Math.round(quantity * dealPrice * FLASH_SALE_UNIT_GB));
}

export const deal = z.object({
  /** The obfuscated id (hashids) used in URLs and every call. */
  id: z.string(),
  deal_type: z.enum(DEAL_TYPES),
  deal_title: z.string(),
  deal_description: z.string(),
  /** USD per GB. */
  deal_price: z.number(),
  status: z.enum(DEAL_STATUSES),
  deal_start_time: z.string(),
  deal_end_time: z.string(),
  deal_reserved_gb: z.number(),
  deal_target_gb: z.number(),
});
export type Deal = z.infer<typeof deal>;

export const dealResponse = z.object({ success: z.literal(true), data: deal });
export const dealListResponse = z.object({ success: z.literal(true), data: z.array(deal) });
export type DealListResponse = z.infer<typeof dealListResponse>;

export const dealIdParams = z.object({ id: z.string().max(64) });

export const depositsResponse = z.object({
  success: z.literal(true),
  data: z.object({
    /** Held by the deal, or owed back (withdrawable). */
    total_deposit: z.number(),
    /** What bought data when the group buy activated (no longer withdrawable). */
    credited_deposit: z.number(),
  }),
});
export type DepositsResponse = z.infer<typeof depositsResponse>;

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** A wallet a withdrawal or refund can go to: an EVM (0x…) or a Solana address. */
export const isWalletAddress = (value: string) => EVM_ADDRESS.test(value) || SOLANA_ADDRESS.test(value);

/** The wallet a withdrawal or refund goes to. */
export const walletAddress = z
  .string({ error: WALLET_ADDRESS_REQUIRED })
  .trim()
  .min(1, WALLET_ADDRESS_REQUIRED)
  .refine(isWalletAddress, WALLET_ADDRESS_INVALID);

export const withdrawRequest = z.object({ wallet_address: walletAddress });
export type WithdrawRequest = z.infer<typeof withdrawRequest>;

/** 422 of a withdrawal whose wallet address is blank or malformed. */
export const withdrawFieldError = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.object({ wallet_address: z.array(z.string()) }),
});

const isoTime = (name: string) =>
  z.iso.datetime({ offset: true, error: `${name} must be an ISO 8601 date-time` });

/** The lowest price of a deal, USD per GB: a cent, the smallest amount the ledger prices (below
 * it the stored price rounds to 0, which the database refuses). */
export const MIN_DEAL_PRICE_USD = 0.01;

/** Why `price` cannot be a deal's price when data lists at `listPrice` USD per GB, or null: a deal
 * is a discount, from a cent up to the list price. */
export function dealPriceRefusal(price: number, listPrice: number): string | null {
  if (price >= MIN_DEAL_PRICE_USD && price <= listPrice) return null;
  return `Deal price must be between $${MIN_DEAL_PRICE_USD.toFixed(2)} and the list price $${listPrice.toFixed(2)} per GB`;
}

/** A deal's price in USD per GB, as creating and editing a deal check it (the server also holds
 * it to the list price, with dealPriceRefusal). */
export const dealPrice = z
  .number({ error: "deal_price must be a number of USD per GB" })
  .min(MIN_DEAL_PRICE_USD, `Deal price must be at least $${MIN_DEAL_PRICE_USD.toFixed(2)} per GB`)
  .max(1000, "deal_price must be at most 1000 USD per GB");

/** A deal's window and target, as creating and editing a deal check them. */
export const dealWindowFields = {
  deal_start_time: isoTime("deal_start_time"),
  deal_end_time: isoTime("deal_end_time"),
  deal_target_gb: z
    .number({ error: "deal_target_gb must be a number" })
    .int("deal_target_gb must be a whole number")
    .positive("deal_target_gb must be greater than 0")
    .max(1_000_000_000, "deal_target_gb must be at most 1000000000"),
};

/** POST /admin/deals. */
export const createDealRequest = z
  .object({
    deal_type: z.enum(DEAL_TYPES, { error: "deal_type must be flash_sale or group_buy" }),
    deal_title: z
      .string({ error: "deal_title is required" })
      .trim()
      .min(1, "deal_title is required")
      .max(200),
    deal_description: z.string().trim().max(2000).default(""),
    deal_price: dealPrice.refine(
      (value) => Math.abs(Math.round(value * 1e4) - value * 1e4) < 1e-6,
      "deal_price has at most 4 decimals",
    ),
    ...dealWindowFields,
  })
  .strict()
  .refine((body) => Date.parse(body.deal_end_time) > Date.parse(body.deal_start_time), {
    path: ["deal_end_time"],
    message: "deal_end_time must be after deal_start_time",
  })
  // A flash sale sells whole units: stock below one could never be bought.
  .refine((body) => body.deal_type !== "flash_sale" || body.deal_target_gb >= FLASH_SALE_UNIT_GB, {
    path: ["deal_target_gb"],
    message: `a flash sale's deal_target_gb must be at least ${FLASH_SALE_UNIT_GB} (one unit)`,
  });
export type CreateDealRequest = z.infer<typeof createDealRequest>;

export const PAYOUT_KINDS = ["withdrawal", "refund"] as const;
export const PAYOUT_STATUSES = ["pending", "sent", "failed"] as const;

export const payout = z.object({
  id: z.string(),
  user_id: z.string(),
  deal_id: z.string(),
  kind: z.enum(PAYOUT_KINDS),
  amount_usd: z.number(),
  wallet_address: z.string(),
  status: z.enum(PAYOUT_STATUSES),
  tx_hash: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Payout = z.infer<typeof payout>;

export const payoutListResponse = z.object({ success: z.literal(true), data: z.array(payout) });
export type PayoutListResponse = z.infer<typeof payoutListResponse>;
export const payoutResponse = z.object({ success: z.literal(true), data: payout });

/** A payout goes to the wallet's own chain family: an EVM chain (polygon, base, ethereum) takes a
 * 0x transaction hash of 64 hex digits, Solana a base58 signature of 87–88 characters. */
const EVM_TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const SOLANA_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{87,88}$/;
export const TX_HASH_REQUIRED = "Enter the transaction hash of the payout.";
export const TX_HASH_INVALID =
  "That is not a transaction hash: an EVM chain's is 0x and 64 hex digits, a Solana signature 87–88 letters and digits.";
const isEvmWallet = (wallet: string) => EVM_ADDRESS.test(wallet);

/** Why `hash` cannot be the hash of a payout to `wallet`, or null when it can. */
export function payoutHashProblem(wallet: string, hash: string): string | null {
  if (hash.trim() === "") return TX_HASH_REQUIRED;
  if (!EVM_TX_HASH.test(hash) && !SOLANA_SIGNATURE.test(hash)) return TX_HASH_INVALID;
  if (isEvmWallet(wallet) && !EVM_TX_HASH.test(hash))
    return "This wallet is on an EVM chain: its transaction hash is 0x and 64 hex digits.";
  if (!isEvmWallet(wallet) && !SOLANA_SIGNATURE.test(hash))
    return "This wallet is a Solana address: its transaction signature is 87–88 letters and digits.";
  return null;
}

/** The explorer page of a payout's transaction: Solscan for Solana; Blockscan for an EVM hash,
 * which finds it on Ethereum, Polygon and Base alike (the payout does not record the chain). */
export function payoutExplorerUrl(hash: string): string | null {
  if (SOLANA_SIGNATURE.test(hash)) return `https://solscan.io/tx/${hash}`;
  if (EVM_TX_HASH.test(hash)) return `https://blockscan.com/tx/${hash}`;
  return null;
}

export const payoutSentRequest = z
  .object({
    tx_hash: z
      .string({ error: TX_HASH_REQUIRED })
      .trim()
      .min(1, TX_HASH_REQUIRED)
      .refine((hash) => EVM_TX_HASH.test(hash) || SOLANA_SIGNATURE.test(hash), TX_HASH_INVALID),
  })
  .strict();
