import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface BarSeries {
  key: string;
  name: string;
  color: string;
}

/** Bars per day (or per anything), one bar per series side by side; loaded lazily with Recharts. */
export default function AdminBarChart({
  data,
  series,
  format,
}: {
  data: Array<Record<string, string | number>>;
  series: readonly BarSeries[];
  format: (value: number) => string;
}) {
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke="#e5e7eb" />
        <XAxis dataKey="label" tick={{ fontSize: 12 }} tickLine={false} minTickGap={12} />
        <YAxis
          tick={{ fontSize: 12 }}
          tickLine={false}
          axisLine={false}
          width={72}
          tickFormatter={(value: number) => format(value)}
        />
        <Tooltip formatter={(value) => format(Number(value))} cursor={{ fill: "#f1f5f9" }} />
        {series.length > 1 ? <Legend iconType="circle" wrapperStyle={{ fontSize: 12 }} /> : null}
        {series.map((item) => (
          <Bar
            key={item.key}
            dataKey={item.key}
            name={item.name}
            fill={item.color}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
