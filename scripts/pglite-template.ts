// `npm run db:pglite-template`: writes the freshly initialised PGlite cluster that new data
// directories are loaded from (packages/db/pglite-cluster/<PGlite version>.tar.gz). Run it after
// upgrading @electric-sql/pglite; the database tests say when it is missing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgliteClusterTemplate } from "../packages/db/src/client.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "pglite-template-"));
try {
  const client = new PGlite(path.join(scratch, "pgdata"));
  await client.waitReady;
  const dump = await client.dumpDataDir("gzip");
  await client.close();
  const target = pgliteClusterTemplate();
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, Buffer.from(await dump.arrayBuffer()));
  console.log(`wrote ${path.relative(process.cwd(), target)} (${(dump.size / 1e6).toFixed(1)} MB)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
