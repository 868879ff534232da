#!/usr/bin/env node
// `npm start`: build the web app when its build is missing or stale, then run the server with tsx,
// forwarding signals (graceful shutdown) and the exit code.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

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

if (!existsSync(path.join(web, "index.html"))) {
  console.log("apps/web has no index.html yet: starting the server without a web build.");
} else if (webBuildIsStale()) {
  console.log("Building the web app (apps/web/dist is missing or older than its sources)…");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const build = spawnSync(npm, ["run", "build", "-w", "@bytetoll/web"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) {
    console.error("The web build failed; fix it or run `npm run build` to see why.");
    process.exit(build.status ?? 1);
  }
}

const tsx = path.join(root, "node_modules/.bin/tsx");
const server = spawn(tsx, [path.join(root, "apps/server/src/server.ts")], { cwd: root, stdio: "inherit" });

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
}

server.on("exit", (code, signal) => {
  process.exit(code ?? (signal ? 128 + (signal === "SIGINT" ? 2 : 15) : 1));
});
