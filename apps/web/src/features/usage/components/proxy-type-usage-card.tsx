import { DEFAULT_USAGE_DAYS } from "@bytetoll/contracts";
import { useUsage } from "../api/get-usage.ts";
import { useUsageCardControls } from "../hooks/use-usage-card-controls.ts";
import { cardState } from "./card-state.ts";
import { ProxyTypeUsageChart } from "./lazy-charts.tsx";
import { UsageCard } from "./usage-card.tsx";
import { toDatum } from "./usage-chart-data.ts";
import { UsageDataTable } from "./usage-data-table.tsx";

export function ProxyTypeUsageCard() {
  const controls = useUsageCardControls(DEFAULT_USAGE_DAYS.proxy_type);
  const query = useUsage("proxy_type", controls.queryPeriod);
  // Decision 005: one row with the four metric fields.
  const row = query.data?.[0];
  const datum = row
    ? toDatum(row, controls.metric, "All traffic")
    : { label: "All traffic", mobile: 0, dc: 0 };
  return (
    <UsageCard
      title="Usage by Proxy Type"
      metric={controls.metric}
      onMetricChange={controls.setMetric}
      period={controls.period}
      onPeriodChange={controls.setPeriod}
      state={cardState(query)}
      chart={() => <ProxyTypeUsageChart datum={datum} metric={controls.metric} />}
      table={() => (
        <UsageDataTable
          caption="Usage by proxy type"
          firstColumn="Traffic"
          data={[datum]}
          metric={controls.metric}
        />
      )}
    />
  );
}
