#!/usr/bin/env node
// `npm run build` (with the web app): compiles the server and the standalone gateway to one
// JavaScript file each, so production starts without the TypeScript loader. Our workspace
// packages are bundled in; everything from node_modules stays an import resolved at run time.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const targets = [
  { entry: "apps/launcher/src/main.ts", outfile: "apps/server/dist/server.js" },
  { entry: "apps/gateway/src/main.ts", outfile: "apps/gateway/dist/main.js" },
];

/** Sources whose change makes a build stale (start.mjs compares their times with the output). */
export const sourceDirs = [
  "apps/launcher/src",
  "apps/server/src",
  "apps/gateway/src",
  "packages/db/src",
  "packages/contracts/src",
  "packages/egress/src",
];

/** Bare imports (node_modules) stay external; `@bytetoll/*` workspace packages are bundled. */
const externalDependencies = {
  name: "external-dependencies",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@bytetoll/") ? undefined : { path: args.path, external: true },
    );
  },
};

/** A bundled file's `import.meta.url` would name the bundle; code uses it to find files next to
 * its source (migrations, the web build), so each file keeps its own URL, relative to the bundle. */
function ownImportMetaUrl(outfile) {
  return {
    name: "own-import-meta-url",
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, async (args) => {
        const source = await readFile(args.path, "utf8");
        if (!source.includes("import.meta.url")) return { contents: source, loader: "ts" };
        const relative = path.relative(path.dirname(outfile), args.path).split(path.sep).join("/");
        const url = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
        return { contents: source.replaceAll("import.meta.url", url), loader: "ts" };
      });
    },
  };
}

/** Bundles one entry file as production runs it: our workspace packages in, node_modules
 * imports left to resolve at run time from `outfile`'s place, each file's import.meta.url kept. */
export async function bundle(entry, outfile) {
  // Loaded here, so `npm start` can read the lists above without loading the compiler.
  const { build } = await import("esbuild");
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
    plugins: [externalDependencies, ownImportMetaUrl(outfile)],
  });
}

export async function buildServer() {
  for (const target of targets) await bundle(path.join(root, target.entry), path.join(root, target.outfile));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
