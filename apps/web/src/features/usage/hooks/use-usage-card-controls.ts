import type { UsagePeriod } from "@bytetoll/contracts";
import { useState } from "react";
import type { UsageMetric } from "../components/usage-chart-data.ts";
import { useDebouncedValue } from "./use-debounced-value.ts";

/** docs/product.md#states/§9: a period change waits 500 ms before it refetches. */
export const PERIOD_DEBOUNCE_MS = 500;

/** A card's metric and period. The select follows every change at once; the query only sees
 * `queryPeriod`, once the user has stopped changing it. */
export function useUsageCardControls(initialPeriod: UsagePeriod) {
  const [metric, setMetric] = useState<UsageMetric>("gb");
  const [period, setPeriod] = useState<UsagePeriod>(initialPeriod);
  const queryPeriod = useDebouncedValue(period, PERIOD_DEBOUNCE_MS);
  return { metric, setMetric, period, setPeriod, queryPeriod };
}
