import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const modules = fileURLToPath(new URL("../src/modules/", import.meta.url));
const source = fileURLToPath(new URL("../src/", import.meta.url));

/** Every `from "…"` specifier in a module folder's source files, with the file it stands in. */
function importsOf(folder: string, root = modules): Array<{ file: string; specifier: string }> {
  const dir = path.join(root, folder);
  return readdirSync(dir)
    .filter((name) => name.endsWith(".ts"))
    .flatMap((name) =>
      [...readFileSync(path.join(dir, name), "utf8").matchAll(/from\s+"([^"]+)"/g)].map((match) => ({
        file: `${folder}/${name}`,
        specifier: match[1] as string,
      })),
    );
}

describe("money flows one way between orders and payments", () => {
  it("orders imports nothing of payments (checkout opens payments through lib/payment-provider.ts)", () => {
    const reaching = importsOf("orders").filter(({ specifier }) => specifier.includes("/payments/"));
    expect(reaching).toEqual([]);
  });

  it("payments reaches orders only through orders/index.ts", () => {
    const reaching = importsOf("payments").filter(
      ({ specifier }) => specifier.includes("/orders/") && specifier !== "../orders/index.ts",
    );
    expect(reaching).toEqual([]);
  });
});

describe("a server module is entered through its index.ts", () => {
  it("no module imports another module's files other than its index.ts (biome.json enforces the same)", () => {
    const folders = readdirSync(modules, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const reaching = folders
      .flatMap((folder) => importsOf(folder))
      .filter(
        ({ specifier }) => /^\.\.\/[^./][^/]*\/[^/]+$/.test(specifier) && !specifier.endsWith("/index.ts"),
      );
    expect(reaching).toEqual([]);
  });
  it("the CLI and the plugins import modules only through their index.ts (biome.json enforces the same)", () => {
    const reaching = ["cli", "plugins"]
      .flatMap((folder) => importsOf(folder, source))
      .filter(({ specifier }) => specifier.startsWith("../modules/") && !specifier.endsWith("/index.ts"));
    expect(reaching).toEqual([]);
  });
});

/** The tables the admin module's own SQL may name: the ones it writes (its audit log; the
 * console's exits, `upstreams`), and the reports the gateways write (no server module writes
 * these; admin reads them as the gateways' reports, docs/architecture.md). Every other table is
 * read through the module that writes it. */
const ADMIN_TABLES = ["admin_audit_log", "upstreams", "destination_rules"];
const GATEWAY_REPORT_TABLES = [
  "gateway_instances",
  "upstream_stats",
  "refusal_stats",
  "served_stats",
  "upstream_usage",
  "destination_report_hits",
];

/** Each table a file's SQL names after FROM, JOIN, UPDATE, INSERT INTO or DELETE FROM, and each
 * drizzle table (`schema.<name>`) it uses; comments, function calls (`FROM date_trunc(`),
 * `FOR UPDATE OF` and the file's own WITH names are left out. */
function tablesNamedIn(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const withNames = new Set(
    [...code.matchAll(/(?:\bWITH(?:\s+RECURSIVE)?|,)\s+([a-z_][a-z0-9_]*)\s+AS\s*\(/g)].map(
      (match) => match[1] as string,
    ),
  );
  const sqlTables = [
    ...code.matchAll(/\b(?:FROM|JOIN|(?<!FOR )UPDATE|INSERT INTO)\s+([a-z_][a-z0-9_]*)\b(?!\s*\()/g),
  ]
    .map((match) => match[1] as string)
    .filter((name) => !withNames.has(name));
  const drizzleTables = [...code.matchAll(/\bschema\.([a-z]\w*)/g)].map((match) =>
    (match[1] as string).replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
  );
  return [...sqlTables, ...drizzleTables];
}

describe("the admin module reads other modules' tables through their own functions", () => {
  it("finds the tables a file names, so the check below can fail", () => {
    expect(
      tablesNamedIn(`/* UPDATE and DELETE */ SELECT u.email FROM users u JOIN orders o ON true;
        db.select().from(schema.dealDeposits); UPDATE sessions SET x = 1; INSERT INTO admin_audit_log`),
    ).toEqual(["users", "orders", "sessions", "admin_audit_log", "deal_deposits"]);
    expect(
      tablesNamedIn(`WITH r AS (SELECT 1 FROM upstream_usage) SELECT x FROM r
        WHERE d IS DISTINCT FROM date_trunc('month', now()) FOR UPDATE OF u`),
    ).toEqual(["upstream_usage"]);
  });

  it("no file in modules/admin names a table other than its own and the gateways' reports", () => {
    const allowed = new Set([...ADMIN_TABLES, ...GATEWAY_REPORT_TABLES]);
    const dir = path.join(modules, "admin");
    const reaching = readdirSync(dir)
      .filter((name) => name.endsWith(".ts"))
      .flatMap((name) =>
        tablesNamedIn(readFileSync(path.join(dir, name), "utf8"))
          .filter((table) => !allowed.has(table))
          .map(
            (table) =>
              `admin/${name} names ${table}: read it through the module that writes it (or, if admin writes it, list it in ADMIN_TABLES)`,
          ),
      );
    expect(reaching).toEqual([]);
  });
});

/** Every source file below `dir`, as a path relative to the server's src/. */
function sourceFiles(dir = source): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [path.relative(source, full).split(path.sep).join("/")] : [];
  });
}

describe("the server shares code with the gateway through @bytetoll/egress, not the gateway app", () => {
  // The gateway app reaches the server as a GatewayHost handed in by apps/launcher (npm start) or
  // a test helper (docs/decisions/035-gateway-rooms.md): no source file of the server names it,
  // and the server's package lists it only for its tests.
  it("names @bytetoll/gateway in no source file", () => {
    const naming = sourceFiles().filter((file) =>
      /["']@bytetoll\/gateway(\/[^"']*)?["']/.test(readFileSync(path.join(source, file), "utf8")),
    );
    expect(naming).toEqual([]);
  });

  it("depends on @bytetoll/gateway only for its tests", () => {
    const manifest = JSON.parse(readFileSync(path.join(source, "../package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).not.toContain("@bytetoll/gateway");
    expect(Object.keys(manifest.devDependencies ?? {})).toContain("@bytetoll/gateway");
  });
});
