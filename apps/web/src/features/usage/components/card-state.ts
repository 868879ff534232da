import type { UsageMetrics } from "@bytetoll/contracts";
import { hasTraffic } from "./usage-chart-data.ts";

/** What a Usage card shows: loading, an error message, "no data", or the chart. */
export type UsageCardState =
  | { status: "pending" }
  | { status: "error"; message: string }
  | { status: "empty" }
  | { status: "ready" };

/** Maps a usage query onto the card's four states. Kept data wins over a later failed refresh. */
export function cardState(query: {
  data: readonly UsageMetrics[] | undefined;
  error: Error | null;
}): UsageCardState {
  if (query.data) return hasTraffic(query.data) ? { status: "ready" } : { status: "empty" };
  if (query.error) return { status: "error", message: query.error.message };
  return { status: "pending" };
}
