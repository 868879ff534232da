import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, pgliteClusterTemplate } from "./client.ts";

const parent = mkdtempSync(path.join(tmpdir(), "bytetoll-data-dir-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe("the embedded database in a data directory", () => {
  it("ships the initialised cluster a new data directory starts from, for the installed PGlite", () => {
    // Missing after an upgrade of @electric-sql/pglite: run `npm run db:pglite-template`.
    expect(existsSync(pgliteClusterTemplate())).toBe(true);
  });

  it("starts in an empty directory migrated and usable, leaves nothing beside it, and reopens", async () => {
    const dataDir = path.join(parent, "pglite");
    const first = await openDatabase({ dataDir });
    await first.query("INSERT INTO users (email) VALUES ('first@example.com')");
    await first.close();
    expect(readdirSync(parent)).toEqual(["pglite"]);

    const again = await openDatabase({ dataDir });
    const rows = await again.query<{ email: string }>("SELECT email FROM users");
    await again.close();
    expect(rows.map((row) => row.email)).toEqual(["first@example.com"]);
  }, 120_000);
});
