import { MICROS_PER_USD, type Upstream, type UpstreamHealth } from "@bytetoll/contracts";
import { type Database, joinExitUrl, maskedExitUrl } from "@bytetoll/db";
import { budgetReached, type ConsoleExitRow, type GatewayConfig, parseUpstream } from "@bytetoll/egress";
import { networkFigures } from "./network.ts";

type Spec = GatewayConfig["mobileUpstreams"][number];

/** An environment exit's URL as the console shows it: the password masked. */
function envUrl(spec: Spec): string {
  if (spec.kind === "direct") return spec.id;
  const user =
    spec.username === undefined
      ? ""
      : encodeURIComponent(spec.username).replace(/%7B|%7D/g, decodeURIComponent);
  const auth = spec.username === undefined ? "" : `${user}${spec.password === undefined ? "" : ":****"}@`;
  const host = spec.host.includes(":") ? `[${spec.host}]` : spec.host;
  return `${spec.kind}://${auth}${host}:${spec.port}`;
}

/** The id the gateways report an exit's figures under (its URL without credentials). */
function statsId(row: ConsoleExitRow): string | null {
  const query = row.countries.map((code) => `country=${code.toLowerCase()}`).join("&");
  try {
    const url = joinExitUrl(row.url_public, null);
    return parseUpstream(query === "" ? url : `${url}?${query}`).id;
  } catch {
    return null;
  }
}

function lastHour(health: UpstreamHealth | undefined): Upstream["last_hour"] {
  return {
    bytes: health?.bytes ?? 0,
    connects: health?.attempts ?? 0,
    failures: health?.failures ?? 0,
    median_connect_ms: health?.median_connect_ms ?? null,
  };
}

const liveState = (health: UpstreamHealth | undefined): Upstream["state"] =>
  health?.status === "down" ? "down" : "up";

/** The API's view of a console exit, given the gateways' last hour. */
export function consoleExit(row: ConsoleExitRow, health: UpstreamHealth[]): Upstream {
  const id = statsId(row);
  const pool = row.pool === "datacenter" ? "dc" : "mobile";
  const figures = health.find((h) => h.pool === pool && h.upstream_id === id);
  return {
    id: row.id,
    name: row.name,
    pool: row.pool,
    url: maskedExitUrl(row.url_public, row.password_sealed !== null),
    countries: row.countries,
    cost_per_gb_usd: Number(row.cost_per_gb_micros) / MICROS_PER_USD,
    weight: row.weight,
    monthly_budget_gb: row.monthly_budget_bytes === null ? null : Number(row.monthly_budget_bytes) / 1e9,
    enabled: row.enabled,
    source: "console",
    state: !row.enabled ? "disabled" : budgetReached(row) ? "budget_reached" : liveState(figures),
    month_bytes: Number(row.month_bytes),
    last_hour: lastHour(figures),
  };
}

/** MOBILE_UPSTREAMS and DATACENTER_UPSTREAMS, read-only, with the bytes booked to them this month. */
async function environmentExits(
  database: Database,
  config: GatewayConfig,
  health: UpstreamHealth[],
): Promise<Upstream[]> {
  const booked = await database.query<{ upstream_key: string; pool: string; bytes: string }>(
    `SELECT upstream_key, pool, sum(bytes) AS bytes FROM upstream_usage
      WHERE day >= date_trunc('month', now() AT TIME ZONE 'UTC')::date GROUP BY upstream_key, pool`,
  );
  const pools = [
    ["mobile", "mobile", config.mobileUpstreams],
    ["datacenter", "dc", config.datacenterUpstreams],
  ] as const;
  return pools.flatMap(([pool, short, specs]) =>
    specs.map((spec, index): Upstream => {
      const figures = health.find((h) => h.pool === short && h.upstream_id === spec.id);
      return {
        id: `env:${pool}:${index}`,
        name: spec.id,
        pool,
        url: envUrl(spec),
        countries: [...(spec.countries ?? [])],
        cost_per_gb_usd: 0,
        weight: 1,
        monthly_budget_gb: null,
        enabled: true,
        source: "environment",
        state: liveState(figures),
        month_bytes: Number(booked.find((b) => b.upstream_key === spec.id && b.pool === pool)?.bytes ?? 0),
        last_hour: lastHour(figures),
      };
    }),
  );
}

/** Every exit: the environment's first (read-only), then the console's in the order added. */
export async function listExits(
  database: Database,
  config: GatewayConfig,
  rows: ConsoleExitRow[],
): Promise<Upstream[]> {
  const { upstreams: health } = await networkFigures(database);
  return [
    ...(await environmentExits(database, config, health)),
    ...rows.map((row) => consoleExit(row, health)),
  ];
}
