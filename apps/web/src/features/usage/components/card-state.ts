import type { UsageMetrics } from "@bytetoll/contracts";
import type { UsageCardProps } from "./usage-card.tsx";
import { hasTraffic } from "./usage-chart-data.ts";

/** Maps a usage query onto the card's four states. Kept data wins over a later failed refresh. */
export function cardState(query: {
  data: readonly UsageMetrics[] | undefined;
  error: Error | null;
}): UsageCardProps["state"] {
  if (query.data) return hasTraffic(query.data) ? { status: "ready" } : { status: "empty" };
  if (query.error) return { status: "error", message: query.error.message };
  return { status: "pending" };
}
