import { DayUsageChart, DomainUsageChart, ProxyTypeUsageChart } from "./lazy-charts.tsx";
import type { UsageCardKind } from "./usage-card.tsx";
import { emptyDatum, formatUsageDay, toDatum } from "./usage-chart-data.ts";

export const DAY_USAGE: UsageCardKind<"day"> = {
  groupBy: "day",
  title: "Usage per Day",
  toData: (rows, metric) => rows.map((row) => toDatum(row, metric, formatUsageDay(row.date))),
  Chart: DayUsageChart,
  table: { caption: "Usage per day (UTC)", firstColumn: "Day" },
};

export const DOMAIN_USAGE: UsageCardKind<"domain"> = {
  groupBy: "domain",
  title: "Usage per Domain",
  withOthers: true,
  toData: (rows, metric) => rows.map((row) => toDatum(row, metric, row.value)),
  Chart: DomainUsageChart,
  table: { caption: "Usage per domain", firstColumn: "Domain" },
};

/** Decision 005: one row with the four metric fields. */
export const PROXY_TYPE_USAGE: UsageCardKind<"proxy_type"> = {
  groupBy: "proxy_type",
  title: "Usage by Proxy Type",
  toData: ([row], metric) => [row ? toDatum(row, metric, "All traffic") : emptyDatum("All traffic")],
  Chart: ProxyTypeUsageChart,
  table: { caption: "Usage by proxy type", firstColumn: "Traffic" },
};
