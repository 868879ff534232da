import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import {
  type ChartDatum,
  DC_COLOR,
  MOBILE_COLOR,
  type UsageMetric,
  valueAxisProps,
} from "../usage-chart-data.ts";
import { UsageTooltip } from "./chart-tooltip.tsx";
import { legendProps } from "./legend-props.tsx";

/** docs/product.md#routes-and-layout: stacked bars per UTC day, mobile below DC. */
export default function DayUsageChart({ data, metric }: { data: ChartDatum[]; metric: UsageMetric }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke="#e5e7eb" />
        <XAxis dataKey="label" tick={{ fontSize: 12 }} tickLine={false} minTickGap={12} />
        <YAxis {...valueAxisProps(data, metric)} axisLine={false} width={64} />
        <Tooltip content={<UsageTooltip metric={metric} />} cursor={{ fill: "#f1f5f9" }} />
        <Legend {...legendProps} />
        <Bar dataKey="mobile" name="Mobile" stackId="usage" fill={MOBILE_COLOR} isAnimationActive={false} />
        <Bar dataKey="dc" name="DC" stackId="usage" fill={DC_COLOR} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
