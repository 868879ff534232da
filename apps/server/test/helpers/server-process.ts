import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../..", import.meta.url));

/** A TCP port nothing listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `npm start`'s server (apps/server/src/server.ts) as a child process on a free port and its own
 * DATA_DIR, resolved once it prints that it is running. `env` adds to or overrides the defaults
 * (no embedded gateway, warnings only, development mode).
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "bytetoll-server-"));
  const child = spawn(
    path.join(root, "node_modules/.bin/tsx"),
    [path.join(root, "apps/server/src/server.ts")],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        GATEWAY_DISABLED: "true",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  void exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  await new Promise<void>((resolve, reject) => {
    const running = () => {
      if (output.includes("ByteToll is running at")) resolve();
    };
    child.stdout?.on("data", running);
    void exited.then((code) =>
      reject(new Error(`the server exited (${code}) before it was running:\n${output}`)),
    );
  });
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
