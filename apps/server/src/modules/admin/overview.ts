import { bytesToGb, type Overview } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import { soldBytesByDay } from "../account/index.ts";
import { accountCounts } from "../auth/index.ts";
import { revenueByDay } from "../orders/index.ts";
import { rejectionsByReason } from "../payments/index.ts";
import { activeAccounts, usedBytesByDay } from "../usage/index.ts";
import { lastDays } from "./customers.ts";

/**
 * GET /admin/overview over the last `days` UTC days, from the tables the product keeps:
 * revenue = each order's price × the share of its bytes credited and not reversed, on the day it
 * was paid (so partial payments and refunds count as they stand); GB sold = purchase ledger
 * entries; GB used = the gateways' metered traffic (usage_daily_totals, both proxy types);
 * refusals = what the gateways counted per minute (refusal_stats, served_stats).
 */
export async function overview(database: Database, days: number): Promise<Overview> {
  const window = lastDays(days);
  const from = window[0] as string;
  const to = window[window.length - 1] as string;
  const since = `${from}T00:00:00Z`;
  const [revenue, sold, used, counts, active, rejections, refused, served] = await Promise.all([
    revenueByDay(database, since),
    soldBytesByDay(database, since),
    usedBytesByDay(database, from),
    accountCounts(database, since),
    activeAccounts(database, from),
    rejectionsByReason(database, since),
    database.query<{ reason: string; count: string }>(
      `SELECT reason, sum(count) AS count FROM refusal_stats WHERE minute >= $1::timestamptz
        GROUP BY reason HAVING sum(count) > 0 ORDER BY sum(count) DESC, reason`,
      [since],
    ),
    database.query<{ count: string | null }>(
      "SELECT sum(count) AS count FROM served_stats WHERE minute >= $1::timestamptz",
      [since],
    ),
  ]);

  const sum = <T>(rows: T[], value: (row: T) => number) => rows.reduce((total, row) => total + value(row), 0);
  const byDay = <T extends { day: string }>(rows: T[], day: string) => rows.filter((row) => row.day === day);
  const providers = [...new Set(revenue.map((row) => row.provider))].sort();
  const refusals = refused.map((row) => ({ reason: row.reason, count: Number(row.count) }));
  const requests = Number(served[0]?.count ?? 0) + sum(refusals, (row) => row.count);
  return {
    days,
    from,
    to,
    revenue: {
      total_cents: sum(revenue, (row) => Number(row.cents)),
      by_day: window.map((day) => ({
        day,
        cents: sum(byDay(revenue, day), (row) => Number(row.cents)),
        orders: sum(byDay(revenue, day), (row) => Number(row.orders)),
      })),
      by_provider: providers.map((provider) => {
        const rows = revenue.filter((row) => row.provider === provider);
        return {
          provider,
          cents: sum(rows, (row) => Number(row.cents)),
          orders: sum(rows, (row) => Number(row.orders)),
        };
      }),
    },
    data: {
      sold_gb: bytesToGb(sum(sold, (row) => Number(row.bytes))),
      used_gb: bytesToGb(sum(used, (row) => Number(row.bytes))),
      by_day: window.map((day) => ({
        day,
        sold_gb: bytesToGb(sum(byDay(sold, day), (row) => Number(row.bytes))),
        used_gb: bytesToGb(sum(byDay(used, day), (row) => Number(row.bytes))),
      })),
    },
    customers: {
      new: Number(counts?.new ?? 0),
      active,
      total: Number(counts?.total ?? 0),
      disabled: Number(counts?.disabled ?? 0),
    },
    refusals: { requests, by_reason: refusals.map((row) => ({ ...row, share: row.count / requests })) },
    payment_rejections: rejections.map((row) => ({ reason: row.reason, count: Number(row.count) })),
  };
}
