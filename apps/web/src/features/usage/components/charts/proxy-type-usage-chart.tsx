import { Legend, Pie, PieChart, ResponsiveContainer, Tooltip } from "recharts";
import {
  type ChartDatum,
  DC_COLOR,
  DONUT_CHART_HEIGHT,
  donutSliceStroke,
  formatMetric,
  MOBILE_COLOR,
  totalOf,
  type UsageMetric,
} from "../usage-chart-data.ts";
import { UsageTooltip } from "./chart-tooltip.tsx";
import { legendProps } from "./legend-props.tsx";

/** docs/product.md#routes-and-layout: a donut of mobile and DC with the total in its centre, labelled Total. */
export default function ProxyTypeUsageChart({ data, metric }: { data: ChartDatum[]; metric: UsageMetric }) {
  // The proxy-type card always draws exactly one point: all traffic.
  const datum = data[0]!;
  const slices = [
    { name: "Mobile", value: datum.mobile, fill: MOBILE_COLOR },
    { name: "DC", value: datum.dc, fill: DC_COLOR },
  ];
  return (
    <div className="relative">
      <ResponsiveContainer width="100%" height={DONUT_CHART_HEIGHT}>
        <PieChart>
          <Pie
            data={slices}
            dataKey="value"
            nameKey="name"
            innerRadius="58%"
            outerRadius="80%"
            stroke={donutSliceStroke(datum)}
            startAngle={90}
            endAngle={-270}
            isAnimationActive={false}
          />
          <Tooltip content={<UsageTooltip metric={metric} />} />
          <Legend {...legendProps} />
        </PieChart>
      </ResponsiveContainer>
      {/* Centred over the hole (the legend takes ~24 px at the bottom). */}
      <div
        data-testid="donut-centre"
        className="pointer-events-none absolute inset-x-0 top-0 flex h-[236px] flex-col items-center justify-center"
      >
        <span className="text-xs font-medium text-slate-500">Total</span>
        <span className="text-lg font-semibold text-slate-900">
          {formatMetric(totalOf(datum, metric), metric)}
        </span>
      </div>
    </div>
  );
}
