import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { bundle } from "../../scripts/build-server.mjs";

/** What a bench child process (origin, gateway) says once it listens. */
export interface Ready {
  type: "ready";
  port: number;
  tlsPort?: number;
  socksPort?: number;
  username?: string;
  password?: string;
  /** The process whose tree carries the traffic, when it is not the child itself. */
  pid?: number;
  /** A sub-user of the same account (the gateway only). */
  subuserUsername?: string;
  subuserPassword?: string;
}

/** One bundle per source file a run starts children from (a bench starts the same gateway
 * file several times, with different settings). */
const bundles = new Map<string, Promise<string>>();

/**
 * A bench child compiled as production runs the gateway (`npm run build`: one esbuild bundle, no
 * TypeScript loader), next to its source in `.bench-dist/`, so node_modules resolve from its own
 * checkout (a BENCH_BASELINE one too). Through tsx every function expression made at run time is
 * also named by a helper call (esbuild's keepNames), a few percent of a short tunnel's CPU that
 * `npm start` does not spend.
 */
function compiled(file: string): Promise<string> {
  let built = bundles.get(file);
  if (!built) {
    const outfile = join(dirname(file), ".bench-dist", `${basename(file, ".ts")}.mjs`);
    built = bundle(file, outfile).then(() => outfile);
    bundles.set(file, built);
  }
  return built;
}

/** Starts a bench child (a TypeScript file, compiled first), with `env` added to this process's
 * environment, and resolves once it says it is ready. */
export async function startChild(
  file: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, ["--expose-gc", await compiled(file)], {
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

/** CPU a process and all its threads used, in ms: in user space and in the kernel as the kernel
 * splits them in clock ticks (10 ms each), and in all as the scheduler counts it in nanoseconds
 * (`/proc/<pid>/task/<tid>/schedstat`, summed over its live threads; the ticks' sum where that
 * cannot be read). A round of a short-connection bench spends a few hundred ms of a proxy's CPU:
 * counted in ticks alone, a figure would move by several percent either way. */
export interface CpuSplit {
  user: number;
  system: number;
  total: number;
}

function cpuSplitMs(pid: number): CpuSplit {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  const ticksPerSecond = 100;
  const user = (Number(fields[11]) * 1000) / ticksPerSecond;
  const system = (Number(fields[12]) * 1000) / ticksPerSecond;
  return { user, system, total: scheduledMs(pid) ?? user + system };
}

/** The time the scheduler ran the process's live threads, in ms (null: not readable here). */
function scheduledMs(pid: number): number | null {
  let nanoseconds = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`))
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
  } catch {
    return null;
  }
  return Number.isFinite(nanoseconds) ? nanoseconds / 1e6 : null;
}

/** All the CPU of a process and all its threads, in ms. */
export function cpuMs(pid: number): number {
  return cpuSplitMs(pid).total;
}

/** The CPU spent between two readings, in ms, and the kernel's part of it (the ticks' share). */
export function cpuSpentMs(before: CpuSplit, after: CpuSplit): { total: number; system: number } {
  const total = after.total - before.total;
  const ticks = after.user + after.system - (before.user + before.system);
  const systemShare = ticks > 0 ? (after.system - before.system) / ticks : 0;
  return { total, system: total * systemShare };
}

/** cpuSplitMs of a process and of every process under it (a gateway's workers). */
export function treeCpuSplitMs(pid: number): CpuSplit {
  const total = { user: 0, system: 0, total: 0 };
  try {
    const own = cpuSplitMs(pid);
    total.user += own.user;
    total.system += own.system;
    total.total += own.total;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      for (const child of children.split(" ").filter(Boolean)) {
        const under = treeCpuSplitMs(Number(child));
        total.user += under.user;
        total.system += under.system;
        total.total += under.total;
      }
    }
  } catch {
    // The process ended meanwhile.
  }
  return total;
}

/** cpuMs of a process and of every process under it. */
export function treeCpuMs(pid: number): number {
  return treeCpuSplitMs(pid).total;
}
