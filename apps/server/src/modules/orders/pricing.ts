import { BYTES_PER_GB } from "@bytetoll/contracts";

/** Bytes per US cent at one USD per GB (exactly 1e7). */
export const BYTES_PER_CENT = BYTES_PER_GB / 100;

/** The bytes `amountCents` buys at `pricePerGbUsd` (whole bytes, rounded to the nearest). */
export const bytesFor = (amountCents: number, pricePerGbUsd: number) =>
  Math.round((amountCents * BYTES_PER_CENT) / pricePerGbUsd);

/** What the provider shows the customer the payment is for. */
export const paymentDescription = (bytes: number) => `${bytes / BYTES_PER_GB} GB of proxy data`;
