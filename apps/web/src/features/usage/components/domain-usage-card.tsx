import { DEFAULT_USAGE_DAYS } from "@bytetoll/contracts";
import { useUsage } from "../api/get-usage.ts";
import { useUsageCardControls } from "../hooks/use-usage-card-controls.ts";
import { cardState } from "./card-state.ts";
import { DomainUsageChart } from "./lazy-charts.tsx";
import { UsageCard } from "./usage-card.tsx";
import { toDatum } from "./usage-chart-data.ts";
import { UsageDataTable } from "./usage-data-table.tsx";

export function DomainUsageCard() {
  const controls = useUsageCardControls(DEFAULT_USAGE_DAYS.domain);
  // docs/product.md#routes-and-layout: top 5 by total, the remainder grouped as Others — the server does the grouping.
  const query = useUsage("domain", controls.queryPeriod, true);
  const data = (query.data ?? []).map((row) => toDatum(row, controls.metric, row.value));
  return (
    <UsageCard
      title="Usage per Domain"
      metric={controls.metric}
      onMetricChange={controls.setMetric}
      period={controls.period}
      onPeriodChange={controls.setPeriod}
      state={cardState(query)}
      chart={() => <DomainUsageChart data={data} metric={controls.metric} />}
      table={() => (
        <UsageDataTable
          caption="Usage per domain"
          firstColumn="Domain"
          data={data}
          metric={controls.metric}
        />
      )}
    />
  );
}
