import { DEFAULT_USAGE_DAYS } from "@bytetoll/contracts";
import { useUsage } from "../api/get-usage.ts";
import { useUsageCardControls } from "../hooks/use-usage-card-controls.ts";
import { cardState } from "./card-state.ts";
import { DayUsageChart } from "./lazy-charts.tsx";
import { UsageCard } from "./usage-card.tsx";
import { formatUsageDay, toDatum } from "./usage-chart-data.ts";
import { UsageDataTable } from "./usage-data-table.tsx";

export function DayUsageCard() {
  const controls = useUsageCardControls(DEFAULT_USAGE_DAYS.day);
  const query = useUsage("day", controls.queryPeriod);
  const data = (query.data ?? []).map((row) => toDatum(row, controls.metric, formatUsageDay(row.date)));
  return (
    <UsageCard
      title="Usage per Day"
      metric={controls.metric}
      onMetricChange={controls.setMetric}
      period={controls.period}
      onPeriodChange={controls.setPeriod}
      state={cardState(query)}
      chart={() => <DayUsageChart data={data} metric={controls.metric} />}
      table={() => (
        <UsageDataTable
          caption="Usage per day (UTC)"
          firstColumn="Day"
          data={data}
          metric={controls.metric}
        />
      )}
    />
  );
}
