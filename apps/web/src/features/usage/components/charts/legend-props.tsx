import type { LegendProps } from "recharts";

/** One legend for every usage chart: Mobile before DC (series order, not alphabetical), and
 * labels in text colour, since the light DC grey is too faint for words. */
export const legendProps = {
  iconType: "square",
  itemSorter: null,
  wrapperStyle: { fontSize: 12 },
  formatter: (value: string) => <span className="text-slate-700">{value}</span>,
} satisfies Partial<LegendProps>;
