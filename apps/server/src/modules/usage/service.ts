import {
  bytesToGb,
  USAGE_DELETED_SUBUSER_LABEL,
  USAGE_EXPORT_COLUMNS,
  USAGE_OTHERS_LABEL,
  USAGE_OWN_CREDENTIALS_FILTER,
  USAGE_OWN_CREDENTIALS_LABEL,
  USAGE_TOP_DOMAINS,
  type UsageDayRow,
  type UsageDomainRow,
  type UsageMetrics,
  type UsagePeriod,
  type UsageSubuserRow,
} from "@bytetoll/contracts";
import { type Database, schema } from "@bytetoll/db";
import { csvRecord } from "./csv.ts";
import { lastDays } from "./day-window.ts";
import {
  createUsageRepository,
  type DayWindow,
  type ExportLine,
  type SubuserFilter,
  type UsageTotals,
} from "./repository.ts";

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

/** One export line in USAGE_EXPORT_COLUMNS order; the sub-user column is empty for the own
 * credentials. */
function exportFields(line: ExportLine): string[] {
  const subuser = line.subuser_id === schema.NO_SUBUSER ? "" : (line.label ?? USAGE_DELETED_SUBUSER_LABEL);
  return [line.date, line.domain, line.proxy_type, line.bytes, line.requests, subuser];
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
    async byDay(userId: string, days: UsagePeriod, only: SubuserFilter = null): Promise<UsageDayRow[]> {
      const rows = await repository.byDay(userId, lastDays(days, now()), only);
      return rows.map((row) => ({ date: row.date, ...metrics(row) }));
    },

    /** Domains by total bytes, largest first; with `others`, the top 5 plus one "Others" row
     * (present only when there is a sixth domain to put in it). */
    async byDomain(
      userId: string,
      days: UsagePeriod,
      others: boolean,
      only: SubuserFilter = null,
    ): Promise<UsageDomainRow[]> {
      const rows = await repository.byDomain(
        userId,
        lastDays(days, now()),
        others ? USAGE_TOP_DOMAINS : null,
        only,
      );
      return rows.map((row) => ({ value: row.others ? USAGE_OTHERS_LABEL : row.value, ...metrics(row) }));
    },

    /** Decision 005: one row holding the four metric fields for the whole window. */
    async byProxyType(
      userId: string,
      days: UsagePeriod,
      only: SubuserFilter = null,
    ): Promise<UsageMetrics[]> {
      return [metrics(await repository.byProxyType(userId, lastDays(days, now()), only))];
    },

    /** One row per sub-user (value: its label) and one for the account's own credentials. */
    async bySubuser(
      userId: string,
      days: UsagePeriod,
      only: SubuserFilter = null,
    ): Promise<UsageSubuserRow[]> {
      const rows = await repository.bySubuser(userId, lastDays(days, now()), only);
      return rows.map((row) => {
        const own = row.subuser_id === schema.NO_SUBUSER;
        return {
          value: own ? USAGE_OWN_CREDENTIALS_LABEL : (row.label ?? USAGE_DELETED_SUBUSER_LABEL),
          subuser_id: own ? null : row.subuser_id,
          ...metrics(row),
        };
      });
    },

    /** The filter a `subuser` query parameter names: null for none, the nil id for "main", a
     * sub-user id only when the caller holds it (another's is treated as not found). */
    async subuserFilter(userId: string, subuser: string | undefined): Promise<SubuserFilter | "unknown"> {
      if (subuser === undefined) return null;
      if (subuser === USAGE_OWN_CREDENTIALS_FILTER) return schema.NO_SUBUSER;
      return (await repository.ownsSubuser(userId, subuser)) ? subuser : "unknown";
    },

    /**
     * The CSV export. The first page is read before this resolves, so a database failure is
     * still an ordinary error response rather than a download cut short.
     */
    async exportCsv(userId: string, days: UsagePeriod, only: SubuserFilter = null): Promise<UsageExport> {
      const window = lastDays(days, now());
      const first = await repository.exportPage(userId, window, EXPORT_PAGE_SIZE, null, only);
      async function* lines(): AsyncGenerator<string> {
        yield csvRecord(USAGE_EXPORT_COLUMNS);
        let page: ExportLine[] = first;
        while (page.length > 0) {
          yield page.map((line) => csvRecord([...exportFields(line)])).join("");
          if (page.length < EXPORT_PAGE_SIZE) return;
          const last = page[page.length - 1]!;
          page = await repository.exportPage(
            userId,
            window,
            EXPORT_PAGE_SIZE,
            { date: last.date, domain: last.domain, proxyType: last.proxy_type, subuserId: last.subuser_id },
            only,
          );
        }
      }
      return { window, lines: lines() };
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
