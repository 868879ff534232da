import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@bytetoll/gateway/testing";
import { vi } from "vitest";

const root = fileURLToPath(new URL("../../../..", import.meta.url));

export interface SpawnedScript {
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

/**
 * A TypeScript entry point of this repository (`script`, from the root) run by node with tsx as a
 * loader (not its CLI, which runs a second process: signals reach the script itself), with only
 * PATH and `env` in its environment; `args` follow the script, `preload` is a module loaded first.
 */
export function spawnScript(
  script: string,
  env: Record<string, string>,
  options: { preload?: string; args?: string[] } = {},
): SpawnedScript {
  const preloads = options.preload ? ["--import", options.preload] : [];
  const argv = ["--import", "tsx", ...preloads, path.join(root, script), ...(options.args ?? [])];
  const child = spawn(process.execPath, argv, {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Polls /healthz on loopback until it answers; rejects with the output if the process exits first. */
async function untilServing(port: number, exited: Promise<number | null>, output: () => string) {
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });
  // waitUntil retries while the check answers false and stops at once when it throws (an exit).
  await vi
    .waitUntil(
      async () => {
        if (exitCode !== undefined)
          throw new Error(`the server exited (${exitCode}) before serving:\n${output()}`);
        return fetch(`http://127.0.0.1:${port}/healthz`).then(
          (response) => response.ok,
          () => false,
        );
      },
      { timeout: 60_000, interval: 100 },
    )
    .catch((error: Error) => {
      if (error.message.startsWith("the server exited")) throw error;
      throw new Error(`the server did not serve within 60 s:\n${output()}`);
    });
}

export interface ServerProcess extends SpawnedScript {
  port: number;
  url: string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `npm start`'s server (apps/launcher/src/main.ts) as a child process on a free port and its own
 * DATA_DIR, resolved once it answers /healthz. `env` adds to or overrides the defaults
 * (no embedded gateway, warnings only, development mode); `preload` is a module loaded first.
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  options: { preload?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "bytetoll-server-"));
  const { child, output, exited } = spawnScript(
    "apps/launcher/src/main.ts",
    { PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", GATEWAY_DISABLED: "true", ...env },
    options,
  );
  void exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  await untilServing(port, exited, output);
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** `npm run admin -- <args>` with `env` (besides PATH), to its exit code and everything it printed. */
export function runAdmin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const admin = spawnScript("apps/server/src/cli/admin.ts", env, { args });
  return admin.exited.then((code) => ({ code, output: admin.output() }));
}
