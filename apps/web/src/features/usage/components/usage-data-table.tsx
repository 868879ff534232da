import { type ChartDatum, formatMetric, totalOf, type UsageMetric } from "./usage-chart-data.ts";

/** The chart's numbers as a table, visually hidden: screen readers and keyboard users get the
 * same information the picture gives. */
export function UsageDataTable({
  caption,
  firstColumn,
  data,
  metric,
}: {
  caption: string;
  firstColumn: string;
  data: readonly ChartDatum[];
  metric: UsageMetric;
}) {
  return (
    <table className="sr-only">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{firstColumn}</th>
          <th scope="col">Mobile</th>
          <th scope="col">DC</th>
          <th scope="col">Total</th>
        </tr>
      </thead>
      <tbody>
        {data.map((datum) => (
          <tr key={datum.label}>
            <th scope="row">{datum.label}</th>
            <td>{formatMetric(datum.mobile, metric)}</td>
            <td>{formatMetric(datum.dc, metric)}</td>
            <td>{formatMetric(totalOf(datum, metric), metric)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
