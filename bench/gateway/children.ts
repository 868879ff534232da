import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/** What a bench child process (origin, gateway) says once it listens. */
export interface Ready {
  type: "ready";
  port: number;
  tlsPort?: number;
  socksPort?: number;
  username?: string;
  password?: string;
}

/** Starts a bench child (a TypeScript file), with `env` added to this process's environment,
 * and resolves once it says it is ready. */
export function startChild(
  file: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, ["--import", "tsx", "--expose-gc", file], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${file} exited with ${code}`)));
    child.on("message", (message: Ready) => {
      if (message.type === "ready") resolve({ child, ready: message });
    });
  });
}

/** user + system CPU of a process and all its threads, in ms. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  const ticksPerSecond = 100;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}
