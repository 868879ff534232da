#!/usr/bin/env node
// `npm run build`: packs what the server offers under /downloads, since these packages are on no
// public registry. The SDK and the MCP server are bundled into one ESM file each (their
// dependencies inside), so `npm install <url>` and `npx <url>` need nothing but this install.
//   bytetoll-sdk.tgz  @bytetoll/sdk: dist/index.js + .d.ts (types expanded from the contracts)
//   bytetoll-mcp.tgz  @bytetoll/mcp: dist/main.js, the `bytetoll-mcp` command
//   bytetoll-php.zip  bytetoll-php/: the PHP client (composer.json, autoload.php, src/)
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { zipDirectory } from "./zip.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const downloadsDir = path.join(root, "apps/server/dist/downloads");
export const DOWNLOAD_NAMES = ["bytetoll-sdk.tgz", "bytetoll-mcp.tgz", "bytetoll-php.zip"];
/** Sources whose change makes the packages stale. */
export const integrationSourceDirs = [
  "packages/sdk/src",
  "apps/mcp/src",
  "sdks/php/src",
  "packages/contracts/src",
];
const nodeTarget = "node20";
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

const versionOf = (dir) => JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")).version;

/**
 * zod exposes every locale as `z.locales`, so a bundle would carry all of them (≈260 KB); the
 * messages we show are English, set by zod itself. Only `en` stays.
 */
const englishOnlyZod = {
  name: "english-only-zod",
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: path.join(path.dirname(args.importer), "../locales/en.js"), namespace: "zod-en" }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "zod-en" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

/** Replaces `downloads/<name>` at once: a server (or a second build) never sees half a file. */
function publish(file, name) {
  const partial = path.join(downloadsDir, `.${name}.${process.pid}`);
  copyFileSync(file, partial);
  renameSync(partial, path.join(downloadsDir, name));
}

/** A staged package directory, packed by npm into `downloads/<name>`. */
function pack(stage, name) {
  const output = execFileSync(npm, ["pack", "--json", "--pack-destination", stage], { cwd: stage });
  const [{ filename }] = JSON.parse(output.toString());
  publish(path.join(stage, filename), name);
}

function writePackageJson(stage, fields) {
  const common = { version: undefined, type: "module", license: "UNLICENSED", engines: { node: ">=20.18" } };
  writeFileSync(path.join(stage, "package.json"), `${JSON.stringify({ ...common, ...fields }, null, 2)}\n`);
}

/**
 * The declarations import their siblings as `.ts`; a consumer resolves the emitted `.js`. Those
 * index.d.ts does not reach (internals, some naming zod) are left out.
 */
function finishDeclarations(dir) {
  const reached = new Set();
  const visit = (file) => {
    if (reached.has(file)) return;
    reached.add(file);
    const text = readFileSync(path.join(dir, file), "utf8").replace(/(from\s+"\.\/[\w./-]+)\.ts"/g, '$1.js"');
    writeFileSync(path.join(dir, file), text);
    for (const [, name] of text.matchAll(/from\s+"\.\/([\w./-]+)\.js"/g)) visit(`${name}.d.ts`);
  };
  visit("index.d.ts");
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".d.ts") && !reached.has(name))) {
    rmSync(path.join(dir, file));
  }
}

/** esbuild, loaded when building: `npm start` reads this file's lists without the compiler. */
const esbuild = () => import("esbuild");

async function buildSdk(work) {
  const stage = path.join(work, "sdk");
  // The declarations must describe today's contracts.
  execFileSync(
    process.execPath,
    [path.join(root, "node_modules/tsx/dist/cli.mjs"), "packages/sdk/scripts/generate-types.ts"],
    {
      cwd: root,
      stdio: "ignore",
    },
  );
  await (await esbuild()).build({
    entryPoints: [path.join(root, "packages/sdk/src/index.ts")],
    outfile: path.join(stage, "dist/index.js"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    // verifyWebhook runs where webhooks arrive, on a server: Node's own crypto, not bundled.
    external: ["node:crypto"],
    target: nodeTarget,
    logLevel: "warning",
    plugins: [englishOnlyZod],
  });
  execFileSync(
    process.execPath,
    [
      path.join(root, "node_modules/typescript/bin/tsc"),
      "-p",
      "packages/sdk/tsconfig.build.json",
      "--outDir",
      path.join(stage, "dist"),
    ],
    { cwd: root, stdio: "inherit" },
  );
  finishDeclarations(path.join(stage, "dist"));
  cpSync(path.join(root, "packages/sdk/README.md"), path.join(stage, "README.md"));
  writePackageJson(stage, {
    name: "@bytetoll/sdk",
    version: versionOf("packages/sdk"),
    description: "ByteToll API client: balance, usage, proxy credentials, orders, deals, routing",
    exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
    types: "./dist/index.d.ts",
    sideEffects: false,
  });
  pack(stage, "bytetoll-sdk.tgz");
}

async function buildMcp(work) {
  const stage = path.join(work, "mcp");
  await (await esbuild()).build({
    entryPoints: [path.join(root, "apps/mcp/src/main.ts")],
    outfile: path.join(stage, "dist/main.js"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: nodeTarget,
    logLevel: "warning",
    plugins: [englishOnlyZod],
    // Bundled CommonJS dependencies call require() for Node's own modules.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
  });
  cpSync(path.join(root, "apps/mcp/README.md"), path.join(stage, "README.md"));
  writePackageJson(stage, {
    name: "@bytetoll/mcp",
    version: versionOf("apps/mcp"),
    description: "MCP server (stdio) for ByteToll: balance, usage, proxy URL, orders, deals, routing",
    bin: { "bytetoll-mcp": "dist/main.js" },
  });
  pack(stage, "bytetoll-mcp.tgz");
}

function buildPhp(work) {
  const stage = path.join(work, "bytetoll-php");
  for (const entry of ["composer.json", "autoload.php", "README.md", "src"]) {
    cpSync(path.join(root, "sdks/php", entry), path.join(stage, entry), { recursive: true });
  }
  writeFileSync(path.join(work, "bytetoll-php.zip"), zipDirectory(work, "bytetoll-php"));
  publish(path.join(work, "bytetoll-php.zip"), "bytetoll-php.zip");
}

export async function buildIntegrations() {
  mkdirSync(downloadsDir, { recursive: true });
  const work = mkdtempSync(path.join(tmpdir(), "bytetoll-integrations-"));
  try {
    await Promise.all([buildSdk(work), buildMcp(work)]);
    buildPhp(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildIntegrations();
  console.log(
    `SDK, MCP and PHP packages in ${path.relative(root, downloadsDir)} (${Date.now() - started} ms)`,
  );
}
