import type { CreateUpstreamBody, UpdateUpstreamBody } from "@bytetoll/contracts";
import { usdToMicros } from "@bytetoll/contracts";
import { type Database, maskedExitUrl, sealUpstreamPassword, splitExitUrl } from "@bytetoll/db";
import { CONSOLE_EXITS_SQL, type ConsoleExitRow, parseUpstream } from "@bytetoll/egress";
import { sql } from "drizzle-orm";
import { AppError, notFound } from "../../errors.ts";
import { appendAudit } from "./audit.ts";

const badField = (field: string, message: string) => new AppError(400, `${field}: ${message}`, "bad_request");

/** The exit as the audit log keeps it: everything but the password. */
function audited(row: ConsoleExitRow) {
  return {
    name: row.name,
    pool: row.pool,
    url: maskedExitUrl(row.url_public, row.password_sealed !== null),
    countries: row.countries,
    cost_per_gb_micros: Number(row.cost_per_gb_micros),
    weight: row.weight,
    monthly_budget_bytes: row.monthly_budget_bytes === null ? null : Number(row.monthly_budget_bytes),
    enabled: row.enabled,
  };
}

/** The URL checked as the gateways will read it (a 400 naming `url` otherwise), split for storage. */
function storedUrl(url: string, key: Buffer | null): { url_public: string; password_sealed: string | null } {
  try {
    parseUpstream(url);
  } catch (error) {
    throw badField("url", (error as Error).message);
  }
  const { publicUrl, password } = splitExitUrl(url);
  if (password !== null && !key)
    throw badField("url", "a password needs UPSTREAMS_KEY or DATA_DIR to be sealed with");
  return {
    url_public: publicUrl,
    password_sealed: password === null ? null : sealUpstreamPassword(key as Buffer, password),
  };
}

/** GB (10^9 bytes) as whole bytes; null: no budget. */
const budgetBytes = (gb: number | null | undefined) =>
  gb === undefined ? undefined : gb === null ? null : Math.round(gb * 1e9);

const oneRow = async (db: Database, id: string): Promise<ConsoleExitRow | null> => {
  const rows = await db.query<ConsoleExitRow>(`SELECT * FROM (${CONSOLE_EXITS_SQL}) AS e WHERE e.id = $1`, [
    id,
  ]);
  return rows[0] ?? null;
};

function uniqueName(error: unknown): never {
  const text = `${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? "")}`;
  if (text.includes("upstreams_name_unique"))
    throw new AppError(409, "name: another exit has this name", "conflict");
  throw error;
}

/**
 * Console exits written in one transaction with their audit row; the table's trigger announces
 * each change on the change feed, so every gateway reads it within moments.
 */
export function createExitsStore(db: Database, key: Buffer | null) {
  return {
    list: () => db.query<ConsoleExitRow>(CONSOLE_EXITS_SQL),

    async create(actor: string, body: CreateUpstreamBody): Promise<ConsoleExitRow> {
      const url = storedUrl(body.url, key);
      const id = await db.db
        .transaction(async (tx) => {
          const inserted = await tx.execute<{ id: string }>(sql`
            INSERT INTO upstreams (name, pool, url_public, password_sealed, countries, cost_per_gb_micros,
                                   weight, monthly_budget_bytes, enabled)
            VALUES (${body.name}, ${body.pool}, ${url.url_public}, ${url.password_sealed},
                    ${`{${(body.countries ?? []).join(",")}}`}::text[], ${usdToMicros(body.cost_per_gb_usd)},
                    ${body.weight ?? 1}, ${budgetBytes(body.monthly_budget_gb) ?? null}, ${body.enabled ?? true})
            RETURNING id`);
          const created = (inserted.rows[0] as { id: string }).id;
          const row = (
            await tx.execute<ConsoleExitRow>(
              sql`SELECT *, 0 AS month_bytes FROM upstreams WHERE id = ${created}`,
            )
          ).rows[0] as ConsoleExitRow;
          await appendAudit(tx, {
            actor,
            action: "upstream.create",
            subjectType: "upstream",
            subjectId: created,
            after: audited(row),
          });
          return created;
        })
        .catch(uniqueName);
      return (await oneRow(db, id)) as ConsoleExitRow;
    },

    async update(actor: string, id: string, body: UpdateUpstreamBody): Promise<ConsoleExitRow> {
      const url = body.url === undefined ? undefined : storedUrl(body.url, key);
      await db.db
        .transaction(async (tx) => {
          const found = await tx.execute<ConsoleExitRow>(
            sql`SELECT *, 0 AS month_bytes FROM upstreams WHERE id = ${id} FOR UPDATE`,
          );
          const before = found.rows[0];
          if (!before) throw notFound("No such exit");
          const changed = await tx.execute<ConsoleExitRow>(sql`
            UPDATE upstreams SET
              name = coalesce(${body.name ?? null}, name),
              pool = coalesce(${body.pool ?? null}, pool),
              url_public = ${url ? url.url_public : sql`url_public`},
              password_sealed = ${url ? url.password_sealed : sql`password_sealed`},
              countries = ${body.countries ? sql`${`{${body.countries.join(",")}}`}::text[]` : sql`countries`},
              cost_per_gb_micros = coalesce(${body.cost_per_gb_usd === undefined ? null : usdToMicros(body.cost_per_gb_usd)}::bigint, cost_per_gb_micros),
              weight = coalesce(${body.weight ?? null}::integer, weight),
              monthly_budget_bytes = ${body.monthly_budget_gb === undefined ? sql`monthly_budget_bytes` : budgetBytes(body.monthly_budget_gb)},
              enabled = coalesce(${body.enabled ?? null}::boolean, enabled),
              updated_at = now()
            WHERE id = ${id} RETURNING *, 0 AS month_bytes`);
          await appendAudit(tx, {
            actor,
            action: "upstream.update",
            subjectType: "upstream",
            subjectId: id,
            before: audited(before),
            after: audited(changed.rows[0] as ConsoleExitRow),
          });
        })
        .catch(uniqueName);
      return (await oneRow(db, id)) as ConsoleExitRow;
    },

    async remove(actor: string, id: string): Promise<void> {
      await db.db.transaction(async (tx) => {
        const gone = await tx.execute<ConsoleExitRow>(
          sql`DELETE FROM upstreams WHERE id = ${id} RETURNING *, 0 AS month_bytes`,
        );
        const row = gone.rows[0];
        if (!row) throw notFound("No such exit");
        await appendAudit(tx, {
          actor,
          action: "upstream.delete",
          subjectType: "upstream",
          subjectId: id,
          before: audited(row),
        });
      });
    },

    one: (id: string) => oneRow(db, id),
  };
}

export type ExitsStore = ReturnType<typeof createExitsStore>;
