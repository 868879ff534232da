/** Data amounts as people read them, the same on every screen and in every e-mail
 * (docs/product.md#formats-and-limits). */

const gbFormat = new Intl.NumberFormat("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** GB rounded to 2 decimals, e.g. "1.5 GB", "100 GB". Expects GB (bytes / 1e9), not bytes. */
export function formatGb(gb: number): string {
  const rounded = Math.round(gb * 100) / 100;
  // Avoid "-0 GB" for tiny negative rounding noise.
  return `${gbFormat.format(Object.is(rounded, -0) ? 0 : rounded)} GB`;
}

const smallAmountFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/**
 * A data amount in the unit that reads best: GB from 1 GB (as formatGb), MB from 1 MB, KB from
 * 0.1 KB, bytes below, with at most one decimal ("120 MB", "0.4 MB" becomes "400 KB", "40 B").
 * 1 GB = 1,000 MB = 1,000,000 KB, as the ledger counts bytes (10^9 per GB). Expects GB.
 */
export function formatDataAmount(gb: number): string {
  if (gb <= 0 || gb >= 1) return formatGb(gb);
  const mb = Math.round(gb * 10_000) / 10;
  if (mb >= 1000) return formatGb(gb);
  if (mb >= 1) return `${smallAmountFormat.format(mb)} MB`;
  const kb = Math.round(gb * 10_000_000) / 10;
  if (kb === 0) return `${Math.round(gb * 1e9)} B`;
  return kb >= 1000 ? "1 MB" : `${smallAmountFormat.format(kb)} KB`;
}
