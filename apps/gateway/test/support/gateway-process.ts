import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestDatabase } from "@bytetoll/db/testing";
import type { ControlMessage } from "../../src/workers.ts";

const repoRoot = fileURLToPath(new URL("../../../..", import.meta.url));
const mainScript = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

type Ready = Extract<ControlMessage, { type: "ready" }>;
type Flushed = Extract<ControlMessage, { type: "flushed" }>;

/** The standalone gateway as production runs it (main.ts in a process of its own, PostgreSQL),
 * with an IPC channel the primary answers on: its ports once every worker listens, and flushes. */
export interface GatewayProcess {
  child: ChildProcess;
  httpPort: number;
  httpsPort: number;
  socksPort: number;
  metricsPort: number;
  /** The ports the workers' splice addon accepts on (the native front door). */
  nativePorts: string[];
  /** Every worker commits what it metered; true when all did. */
  flush(): Promise<boolean>;
  /** After a flush: the bytes each worker metered since it started, by worker index. */
  meteredByWorker(): Promise<number[]>;
  /** The worker processes' ids (the primary's children). */
  workerPids(): number[];
  /** SIGTERM, and resolves once the primary has exited. */
  close(): Promise<void>;
}

export async function startGatewayProcess(
  database: TestDatabase,
  env: Record<string, string>,
): Promise<GatewayProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", mainScript], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      REDIS_URL: "",
      GATEWAY_BIND: "127.0.0.1",
      GATEWAY_HTTP_PORT: "0",
      GATEWAY_HTTPS_PORT: "0",
      GATEWAY_SOCKS_PORT: "0",
      GATEWAY_METRICS_PORT: "0",
      EGRESS_ALLOW: "127.0.0.0/8",
      ...env,
    },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`gateway exited with ${code} before it listened`)));
    child.on("message", (message: ControlMessage) => {
      if (message.type === "ready") resolve(message);
    });
  });
  let flushes = 0;
  const flush = () => {
    const id = ++flushes;
    return new Promise<Flushed>((resolve) => {
      const answer = (message: ControlMessage) => {
        if (message.type !== "flushed" || message.id !== id) return;
        child.off("message", answer);
        resolve(message);
      };
      child.on("message", answer);
      child.send({ type: "flush", id } satisfies ControlMessage);
    });
  };
  return {
    child,
    httpPort: ready.httpPort,
    httpsPort: ready.httpsPort,
    socksPort: ready.socksPort ?? 0,
    metricsPort: ready.metricsPort ?? 0,
    nativePorts: ready.nativePorts ?? [],
    flush: async () => (await flush()).ok,
    meteredByWorker: async () => (await flush()).metered,
    workerPids() {
      try {
        const out = execFileSync("pgrep", ["-P", String(child.pid)], { encoding: "utf8" });
        return out.split("\n").filter(Boolean).map(Number);
      } catch {
        return []; // pgrep exits 1 when there is none (between a death and the restart)
      }
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
