import type { SubuserLimitPeriod } from "@bytetoll/contracts";

/** How a limit's period reads (periods restart at 00:00 UTC, on Mondays, on the 1st). */
export const PERIOD_LABELS: Record<SubuserLimitPeriod, string> = {
  day: "per day",
  week: "per week",
  month: "per month",
  total: "in total",
};
