/** Display formats of docs/product.md#formats-and-limits, shared by every screen. */

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

const wholeDollars = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const cents = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Money as $ with 0 decimals for whole amounts, else 2: "$3", "$0.30", "$1,234.50". */
export function formatMoney(usd: number): string {
  const roundedCents = Math.round(usd * 100);
  return roundedCents % 100 === 0
    ? wholeDollars.format(roundedCents / 100)
    : cents.format(roundedCents / 100);
}

/** USDC amounts always with 2 decimals: "12.00". */
export function formatUsdc(amount: number): string {
  return amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** "Mon D YYYY HH:MM" in the viewer's time zone, 24-hour clock; "" for an unreadable date. */
export function formatDateTime(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const hours = String(date.getHours()).padStart(2, "0");
  const minutes = String(date.getMinutes()).padStart(2, "0");
  return `${MONTHS[date.getMonth()]} ${date.getDate()} ${date.getFullYear()} ${hours}:${minutes}`;
}

/** Wallet addresses of 8+ characters become first 6 + "…" + last 4; shorter ones are shown whole. */
export function shortenWallet(address: string): string {
  if (address.length < 8) return address;
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
