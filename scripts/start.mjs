#!/usr/bin/env node
// `npm start`: build the web app and compile the server when a build is missing or stale, then
// run the compiled server, forwarding signals (graceful shutdown) and the exit code.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DOWNLOAD_NAMES, downloadsDir, integrationSourceDirs } from "./build-integrations.mjs";
import { sourceDirs, targets } from "./build-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const web = path.join(root, "apps/web");
const builtIndex = path.join(web, "dist/index.html");

/** Newest modification time of a file or of any file below a directory. */
function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function webBuildIsStale() {
  if (!existsSync(builtIndex)) return true;
  const sources = ["src", "index.html", "public", "vite.config.ts"].map((name) => path.join(web, name));
  return Math.max(...sources.map(newestMtime)) > statSync(builtIndex).mtimeMs;
}

// Everything this wrapper and its builds say goes to stderr: stdout carries the server's log
// lines, JSON ones for a log collector.
const buildOutput = { stdio: ["ignore", process.stderr, process.stderr] };

if (!existsSync(path.join(web, "index.html"))) {
  console.error("apps/web has no index.html yet: starting the server without a web build.");
} else if (webBuildIsStale()) {
  console.error("Building the web app (apps/web/dist is missing or older than its sources)…");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  // The dashboard is always a production build, whatever NODE_ENV this server runs with.
  const build = spawnSync(npm, ["run", "build", "-w", "@bytetoll/web"], {
    cwd: root,
    ...buildOutput,
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (build.status !== 0) {
    console.error("The web build failed; fix it or run `npm run build` to see why.");
    process.exit(build.status ?? 1);
  }
}

const [serverTarget] = targets;
const serverOutput = path.join(root, serverTarget.outfile);
const serverSources = sourceDirs.map((dir) => path.join(root, dir));
if (
  !existsSync(serverOutput) ||
  Math.max(...serverSources.map(newestMtime)) > statSync(serverOutput).mtimeMs
) {
  console.error("Compiling the server (its build is missing or older than its sources)…");
  // In a child process, so this long-lived wrapper never loads the compiler.
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build-server.mjs")], buildOutput);
  if (build.status !== 0) {
    console.error("Compiling the server failed; run `npm run build` to see why.");
    process.exit(build.status ?? 1);
  }
}

// The SDK, MCP and PHP packages the integration guide installs from /downloads.
const downloads = DOWNLOAD_NAMES.map((name) => path.join(downloadsDir, name));
const integrationSources = integrationSourceDirs.map((dir) => path.join(root, dir));
if (Math.min(...downloads.map(newestMtime)) < Math.max(...integrationSources.map(newestMtime))) {
  console.error("Packing the SDK, MCP and PHP downloads (missing or older than their sources)…");
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build-integrations.mjs")], buildOutput);
  if (build.status !== 0)
    console.error("Packing the downloads failed; /downloads answers 404 until `npm run build`.");
}

// A young generation of 4 MB (V8 defaults to 16) keeps an idle server's heap small; see
// docs/decisions/008-small-server-footprint.md for the figures.
const nodeFlags = ["--enable-source-maps", "--max-semi-space-size=4"];
const server = spawn(process.execPath, [...nodeFlags, serverOutput], { cwd: root, stdio: "inherit" });

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
}

server.on("exit", (code, signal) => {
  process.exit(code ?? (signal ? 128 + (signal === "SIGINT" ? 2 : 15) : 1));
});
