import type { ReactNode } from "react";
import { ScrollRegion } from "../../../components/ui/scroll-region.tsx";
import { classNames } from "../../../lib/class-names.ts";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Numbers align right. */
  numeric?: boolean;
  /** Its text may wrap (a long title) instead of widening the table past a laptop's screen. */
  wrap?: boolean;
}

/** A plain table in the dashboard's style. Below 640 px each row is a card: the header row is
 * only for screen readers and each cell names its column (label left, value right), so a phone
 * never scrolls sideways to reach a column. */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
}) {
  return (
    <ScrollRegion label={caption} className="rounded max-sm:overflow-visible">
      <table className="min-w-full divide-y divide-slate-200 text-sm max-sm:block">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase max-sm:sr-only">
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={classNames(
                  "px-4 py-3 whitespace-nowrap first:sm:pl-6 last:sm:pr-6",
                  column.numeric && "text-right",
                )}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 max-sm:block">
          {rows.map((row) => (
            <tr key={rowKey(row)} className="max-sm:block max-sm:space-y-1.5 max-sm:px-4 max-sm:py-3">
              {columns.map((column) => (
                <td
                  key={column.header}
                  data-label={column.header}
                  className={classNames(
                    "px-4 py-3 text-slate-700 first:sm:pl-6 last:sm:pr-6",
                    !column.wrap && "sm:whitespace-nowrap",
                    column.numeric && "sm:text-right tabular-nums",
                    "max-sm:flex max-sm:items-baseline max-sm:justify-between max-sm:gap-4 max-sm:p-0 max-sm:text-right max-sm:wrap-anywhere",
                    "max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-xs max-sm:before:font-medium max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)]",
                  )}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

export const tableLinkClass =
  "rounded font-medium text-indigo-700 hover:text-indigo-500 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";
