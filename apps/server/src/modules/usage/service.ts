import {
  bytesToGb,
  USAGE_EXPORT_COLUMNS,
  USAGE_OTHERS_LABEL,
  USAGE_TOP_DOMAINS,
  type UsageDayRow,
  type UsageDomainRow,
  type UsageMetrics,
  type UsagePeriod,
} from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import { csvRecord } from "./csv.ts";
import { lastDays } from "./day-window.ts";
import { createUsageRepository, type DayWindow, type ExportLine, type UsageTotals } from "./repository.ts";

/** Rows per export query: bounds memory however large the account is. */
export const EXPORT_PAGE_SIZE = 5_000;

export interface UsageServiceOptions {
  database: Database;
  /** The clock that decides which UTC day is "today"; tests pin it. */
  now?: () => Date;
}

/** docs/product.md#data-shapes's metric fields from exact sums: GB per docs/product.md#formats-and-limits,
 * requests as counts, and the bytes themselves. */
function metrics(totals: UsageTotals): UsageMetrics {
  return {
    mobile_gb: bytesToGb(totals.mobile_bytes),
    dc_gb: bytesToGb(totals.dc_bytes),
    mobile_requests: totals.mobile_requests,
    dc_requests: totals.dc_requests,
    mobile_bytes: totals.mobile_bytes,
    dc_bytes: totals.dc_bytes,
  };
}

export interface UsageExport {
  window: DayWindow;
  /** The CSV text, header first, produced page by page as the reader pulls. */
  lines: AsyncIterable<string>;
}

export function createUsageService(options: UsageServiceOptions) {
  const repository = createUsageRepository(options.database);
  const now = options.now ?? (() => new Date());

  return {
    /** One row per UTC day of the window, zero-filled, oldest first. */
    async byDay(userId: string, days: UsagePeriod): Promise<UsageDayRow[]> {
      const rows = await repository.byDay(userId, lastDays(days, now()));
      return rows.map((row) => ({ date: row.date, ...metrics(row) }));
    },

    /** Domains by total bytes, largest first; with `others`, the top 5 plus one "Others" row
     * (present only when there is a sixth domain to put in it). */
    async byDomain(userId: string, days: UsagePeriod, others: boolean): Promise<UsageDomainRow[]> {
      const rows = await repository.byDomain(
        userId,
        lastDays(days, now()),
        others ? USAGE_TOP_DOMAINS : null,
      );
      return rows.map((row) => ({ value: row.others ? USAGE_OTHERS_LABEL : row.value, ...metrics(row) }));
    },

    /** Decision 005: one row holding the four metric fields for the whole window. */
    async byProxyType(userId: string, days: UsagePeriod): Promise<UsageMetrics[]> {
      return [metrics(await repository.byProxyType(userId, lastDays(days, now())))];
    },

    /**
     * The CSV export. The first page is read before this resolves, so a database failure is
     * still an ordinary error response rather than a download cut short.
     */
    async exportCsv(userId: string, days: UsagePeriod): Promise<UsageExport> {
      const window = lastDays(days, now());
      const first = await repository.exportPage(userId, window, EXPORT_PAGE_SIZE, null);
      async function* lines(): AsyncGenerator<string> {
        yield csvRecord(USAGE_EXPORT_COLUMNS);
        let page: ExportLine[] = first;
        while (page.length > 0) {
          yield page
            .map((line) => csvRecord([line.date, line.domain, line.proxy_type, line.bytes, line.requests]))
            .join("");
          if (page.length < EXPORT_PAGE_SIZE) return;
          const last = page[page.length - 1]!;
          page = await repository.exportPage(userId, window, EXPORT_PAGE_SIZE, {
            date: last.date,
            domain: last.domain,
            proxyType: last.proxy_type,
          });
        }
      }
      return { window, lines: lines() };
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
