import { joinExitUrl, openUpstreamPassword } from "@bytetoll/db";
import { parseUpstream, type UpstreamSpec } from "./upstreams.ts";

/** An exit as the console stores it (table `upstreams`), the SQL that reads them with what each
 * carried this month, and the spec a pool uses: read alike by the gateways, the learner's prober
 * and the admin console. */
export type ConsoleExitRow = {
  id: string;
  name: string;
  pool: "mobile" | "datacenter";
  url_public: string;
  password_sealed: string | null;
  countries: string[];
  cost_per_gb_micros: string | number;
  weight: number;
  monthly_budget_bytes: string | number | null;
  enabled: boolean;
  month_bytes: string | number;
};

/** The console's exits with what each carried this calendar month (UTC), from the billed usage. */
export const CONSOLE_EXITS_SQL = `
  SELECT u.id, u.name, u.pool, u.url_public, u.password_sealed, u.countries, u.cost_per_gb_micros,
         u.weight, u.monthly_budget_bytes, u.enabled,
         coalesce((SELECT sum(x.bytes) FROM upstream_usage x
                    WHERE x.upstream_key = u.id::text
                      AND x.day >= date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0) AS month_bytes
    FROM upstreams u ORDER BY u.created_at, u.id`;

/** Whether an exit has carried its monthly budget. */
export function budgetReached(row: Pick<ConsoleExitRow, "monthly_budget_bytes" | "month_bytes">): boolean {
  return row.monthly_budget_bytes !== null && Number(row.month_bytes) >= Number(row.monthly_budget_bytes);
}

/** The exit as the pool uses it; throws when its URL or password cannot be read. */
export function consoleExitSpec(
  row: ConsoleExitRow,
  key: Buffer | null,
  trust: { ca?: string },
): UpstreamSpec {
  let password: string | null = null;
  if (row.password_sealed !== null) {
    if (!key) throw new Error("no UPSTREAMS_KEY and no DATA_DIR: the exit's password cannot be read");
    password = openUpstreamPassword(key, row.password_sealed);
  }
  const query = row.countries.map((code) => `country=${code.toLowerCase()}`).join("&");
  const url = joinExitUrl(row.url_public, password);
  const spec = parseUpstream(query === "" ? url : `${url}?${query}`, trust);
  return {
    ...spec,
    weight: row.weight,
    ledger: { key: row.id, name: row.name, costPerGbMicros: Number(row.cost_per_gb_micros) },
  };
}
