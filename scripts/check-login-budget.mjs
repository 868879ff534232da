#!/usr/bin/env node
/**
 * The first visit's size budget (docs/product.md#first-visit-budget): what /login downloads — the
 * entry chunk, the login route's chunk and everything both import statically, plus the stylesheet
 * and the page — compressed with brotli as the server sends it, plus
 * each response's headers. Builds the dashboard into a scratch
 * folder each time, so the figure is that of the code being checked (never a stale dist/) and
 * `npm run check` can run before `npm run build`. Fails with the chunks listed when over budget.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants } from "node:zlib";
import { build } from "vite";

const KB = 1024;
/** Compressed JavaScript of the login route (issue 41 measured 141 KB before the budget). */
export const SCRIPT_BUDGET = 120 * KB;
/** Everything the build contributes to the visit: scripts, stylesheet, the page. */
export const TOTAL_BUDGET = 170 * KB;
const LOGIN_ROUTE = "src/app/routes/login.tsx";
/** Each file is its own response: its headers and framing cost about this much on the wire
 * (fitted to `npm run bench:web`, which counts what Chromium transfers). */
const PER_RESPONSE = 512;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../apps/web");

function brotliSize(buffer) {
  return (
    PER_RESPONSE +
    brotliCompressSync(buffer, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
    }).length
  );
}

/** The manifest keys /login loads before the e-mail field shows: both roots and their static imports. */
function loginChunks(manifest) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const child of manifest[key].imports ?? []) visit(child);
  };
  visit("index.html");
  visit(LOGIN_ROUTE);
  if (!seen.has(LOGIN_ROUTE)) throw new Error(`the build has no chunk for ${LOGIN_ROUTE}`);
  return [...seen];
}

export function measure(outDir) {
  const manifest = JSON.parse(readFileSync(path.join(outDir, ".vite/manifest.json"), "utf8"));
  const rows = [];
  const css = new Set();
  for (const key of loginChunks(manifest)) {
    const file = manifest[key].file;
    rows.push({ file, kind: "script", bytes: brotliSize(readFileSync(path.join(outDir, file))) });
    for (const sheet of manifest[key].css ?? []) css.add(sheet);
  }
  for (const sheet of css) {
    rows.push({ file: sheet, kind: "stylesheet", bytes: brotliSize(readFileSync(path.join(outDir, sheet))) });
  }
  rows.push({
    file: "index.html",
    kind: "document",
    bytes: brotliSize(readFileSync(path.join(outDir, "index.html"))),
  });
  const script = rows.filter((row) => row.kind === "script").reduce((sum, row) => sum + row.bytes, 0);
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  return { rows, script, total };
}

async function main() {
  const outDir = mkdtempSync(path.join(tmpdir(), "bytetoll-login-budget-"));
  try {
    await build({
      root,
      mode: "production",
      logLevel: "error",
      build: { outDir, emptyOutDir: true, manifest: true },
    });
    const { rows, script, total } = measure(outDir);
    const kb = (n) => `${(n / KB).toFixed(1)} KB`;
    const over = script > SCRIPT_BUDGET || total > TOTAL_BUDGET;
    console.log(
      `login budget: script ${kb(script)} of ${kb(SCRIPT_BUDGET)}, in all ${kb(total)} of ${kb(TOTAL_BUDGET)} (brotli)`,
    );
    if (over) {
      for (const row of rows.sort((a, b) => b.bytes - a.bytes))
        console.log(`  ${kb(row.bytes)}\t${row.file}`);
      console.error("The first visit to /login is over budget: lazy-load what the login page does not need.");
      process.exitCode = 1;
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
