import type { Deal } from "@bytetoll/contracts";

const pad = (value: number) => String(value).padStart(2, "0");

/** "2d 03:04:05", or "03:04:05" under a day; never negative. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const clock = `${pad(Math.floor((total % 86_400) / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
  return days > 0 ? `${days}d ${clock}` : clock;
}

/** "DD-MM" of a date in UTC. */
export function dayMonthUtc(iso: string): string {
  const date = new Date(iso);
  return `${pad(date.getUTCDate())}-${pad(date.getUTCMonth() + 1)}`;
}

/** What a deal's status reads as at `now`: a countdown to its start (pending) or end (live),
 * Activated, Expired DD-MM (its end, UTC), or Cancelled. */
export function dealStatusText(
  deal: Pick<Deal, "status" | "deal_start_time" | "deal_end_time">,
  now: number,
) {
  switch (deal.status) {
    case "pending":
      return `Starts in ${formatCountdown(Date.parse(deal.deal_start_time) - now)}`;
    case "live":
      return `Ends in ${formatCountdown(Date.parse(deal.deal_end_time) - now)}`;
    case "activated":
      return "Activated";
    case "expired":
      return `Expired ${dayMonthUtc(deal.deal_end_time)}`;
    case "cancelled":
      return "Cancelled";
  }
}
