import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import {
  type ChartDatum,
  DC_COLOR,
  domainChartHeight,
  MOBILE_COLOR,
  type UsageMetric,
  valueAxisProps,
} from "../usage-chart-data.ts";
import { UsageTooltip } from "./chart-tooltip.tsx";
import { legendProps } from "./legend-props.tsx";

const LABEL_CHARACTERS = 16;
/** Bars stay bar-shaped when a few domains are spread over the card's full height. */
const MAX_BAR_SIZE = 28;

/** About half the width of one 12 px character: the last value label is centred on the plot's
 * right edge, so half of it must fit in the right margin ("150 GB" was cut to "150 G"). */
const HALF_CHARACTER_PX = 3.6;

/** Long domains are cut for the axis; the tooltip and the table keep the whole name. */
const shortLabel = (label: string) =>
  label.length > LABEL_CHARACTERS ? `${label.slice(0, LABEL_CHARACTERS - 1)}…` : label;

/** docs/product.md#routes-and-layout: horizontal stacked bars, one per domain (top 5 + Others), largest on top. */
export default function DomainUsageChart({ data, metric }: { data: ChartDatum[]; metric: UsageMetric }) {
  const valueAxis = valueAxisProps(data, metric);
  const lastLabel = valueAxis.tickFormatter(valueAxis.ticks.at(-1) ?? 0);
  const right = Math.max(8, Math.ceil(lastLabel.length * HALF_CHARACTER_PX) + 4);
  return (
    <ResponsiveContainer width="100%" height={domainChartHeight(data.length)}>
      <BarChart data={data} layout="vertical" margin={{ top: 0, right, bottom: 0, left: 0 }}>
        <CartesianGrid horizontal={false} stroke="#e5e7eb" />
        <XAxis {...valueAxis} />
        <YAxis
          type="category"
          dataKey="label"
          width={112}
          tick={{ fontSize: 12 }}
          tickLine={false}
          tickFormatter={shortLabel}
        />
        <Tooltip content={<UsageTooltip metric={metric} />} cursor={{ fill: "#f1f5f9" }} />
        <Legend {...legendProps} />
        <Bar
          dataKey="mobile"
          name="Mobile"
          stackId="usage"
          fill={MOBILE_COLOR}
          maxBarSize={MAX_BAR_SIZE}
          isAnimationActive={false}
        />
        <Bar
          dataKey="dc"
          name="DC"
          stackId="usage"
          fill={DC_COLOR}
          maxBarSize={MAX_BAR_SIZE}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
