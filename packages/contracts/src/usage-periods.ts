/**
 * The usage constants without zod, so the dashboard's Usage page can import them without
 * pulling the schema library into its chunk (the package is sideEffects-free).
 */

/** docs/product.md#formats-and-limits: the periods the Usage page offers, in days. */
export const USAGE_PERIODS = [1, 7, 14, 30, 90] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];

export const USAGE_GROUPINGS = ["day", "domain", "proxy_type", "subuser"] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

/** docs/product.md#api-calls: days defaults to 7, 7 and 30 for day, domain and proxy_type. */
export const DEFAULT_USAGE_DAYS: Record<UsageGrouping, UsagePeriod> = {
  day: 7,
  domain: 7,
  proxy_type: 30,
  subuser: 30,
};

/** group_by=subuser: the row of the account's own credentials, and of a sub-user deleted since. */
export const USAGE_OWN_CREDENTIALS_LABEL = "Main credentials";
export const USAGE_DELETED_SUBUSER_LABEL = "Deleted sub-user";
/** `subuser=main` filters the usage of the account's own credentials. */
export const USAGE_OWN_CREDENTIALS_FILTER = "main";

/** docs/product.md#formats-and-limits: the domain chart shows the top 5 by total and groups the rest as Others. */
export const USAGE_TOP_DOMAINS = 5;
export const USAGE_OTHERS_LABEL = "Others";

export const USAGE_PERIOD_MESSAGE = `days must be one of ${USAGE_PERIODS.join(", ")}`;

export function parseUsagePeriod(value: string | undefined, fallback: UsagePeriod): UsagePeriod {
  if (value === undefined) return fallback;
  const period = Number(value) as UsagePeriod;
  if (!USAGE_PERIODS.includes(period)) throw new RangeError(USAGE_PERIOD_MESSAGE);
  return period;
}

/** The export's default period: a month, the usual billing cycle to reconcile against. */
export const DEFAULT_EXPORT_DAYS: UsagePeriod = 30;

/** CSV header of the export: one line per day × domain × proxy type × sub-user, exact counts; the
 * sub-user column holds its label, empty for the account's own credentials. */
export const USAGE_EXPORT_COLUMNS = ["date", "domain", "proxy_type", "bytes", "requests", "subuser"] as const;
