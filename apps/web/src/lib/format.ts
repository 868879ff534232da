/** Display formats of docs/product.md#formats-and-limits, shared by every screen. */

// Data amounts read the same in e-mails (written by the server) as on screen.
export { formatDataAmount, formatGb } from "@bytetoll/contracts";

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
