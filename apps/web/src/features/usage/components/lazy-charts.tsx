import { lazy } from "react";

// docs/product.md#routes-and-layout: charts load lazily. Recharts lives only in these chunks, fetched when a Usage card
// first has data to draw — never with the rest of the dashboard.
export const DayUsageChart = lazy(() => import("./charts/day-usage-chart.tsx"));
export const DomainUsageChart = lazy(() => import("./charts/domain-usage-chart.tsx"));
export const ProxyTypeUsageChart = lazy(() => import("./charts/proxy-type-usage-chart.tsx"));
