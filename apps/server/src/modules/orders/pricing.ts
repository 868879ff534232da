import { BYTES_PER_GB, bytesForCents, usdToMicros } from "@bytetoll/contracts";

/** The bytes `amountCents` buys at `pricePerGbUsd`: the money module's one rule for a purchase
 * (whole bytes, rounded down). */
export const bytesFor = (amountCents: number, pricePerGbUsd: number) =>
  bytesForCents(amountCents, usdToMicros(pricePerGbUsd));

/** What the provider shows the customer the payment is for. */
export const paymentDescription = (bytes: number) => `${bytes / BYTES_PER_GB} GB of proxy data`;
