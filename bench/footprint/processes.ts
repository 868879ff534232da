import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitForPort } from "@bytetoll/gateway/testing";

/** Resident memory of a process now (VmRSS) and at its highest so far (VmHWM), in MB. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** The one child `npm start`'s wrapper runs: the server process, the one measured. */
export function childOf(pid: number): number | null {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return children ? Number(children.split(" ")[0]) : null;
}

/** A process and all its descendants. */
function processTree(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return [pid, ...(children ? children.split(" ").flatMap((child) => processTree(Number(child))) : [])];
  } catch {
    return []; // it exited between the listing and the read
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}

/** Proportional set size (MB): the process's private pages plus its share of pages it shares
 * with others (a forked child's copy of its parent, the node binary two node processes map). */
function pssOf(pid: number): number {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) / 1024;
}

/** Samples, every 50 ms until stopped, the server `npm start`'s wrapper runs together with what
 * that server runs (a first start's cluster helper, `openssl` making the gateway's certificate):
 * the highest sum of their RSS, and the highest sum of PSS of those and the wrapper itself — all
 * the product's processes, shared pages counted once (an RSS sum counts a just-forked child's
 * pages twice). In MB. The build steps the wrapper may run before the server are not counted
 * (the bench builds first). */
export function serverTreePeakSampler(wrapper: number): () => { rss: number; allPss: number } {
  let rss = 0;
  let allPss = 0;
  const sum = (pids: Iterable<number>, of: (pid: number) => number) => {
    let total = 0;
    for (const pid of pids) {
      try {
        total += of(pid);
      } catch {
        // exited meanwhile
      }
    }
    return total;
  };
  const sample = () => {
    const servers = processTree(wrapper).filter((pid) => /server\.(js|ts)/.test(commandLine(pid)));
    if (servers.length === 0) return;
    const members = new Set(servers.flatMap(processTree));
    rss = Math.max(
      rss,
      sum(members, (pid) => memoryOf(pid).rss),
    );
    allPss = Math.max(allPss, sum([wrapper, ...members], pssOf));
  };
  const timer = setInterval(sample, 50);
  return () => {
    clearInterval(timer);
    sample();
    return { rss, allPss };
  };
}

/** Resolves once a GET of `url` answers 200; how long that took from `since` (ms). */
export async function firstAnswer(url: string, since: bigint, child: ChildProcess): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the process exited with ${child.exitCode}`);
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return Number(process.hrtime.bigint() - since) / 1e6;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

export const TINYPROXY = "/usr/bin/tinyproxy";

/** tinyproxy configured as bench:gateway runs it: the reference for a proxy's memory. */
export async function startTinyproxy(): Promise<{ child: ChildProcess; port: number; dir: string } | null> {
  if (!existsSync(TINYPROXY)) return null;
  const dir = mkdtempSync(join(tmpdir(), "bench-footprint-tinyproxy-"));
  // tinyproxy drops to `nobody` when started as root and must still write its log here.
  chmodSync(dir, 0o777);
  const port = await freePort();
  writeFileSync(
    join(dir, "tinyproxy.conf"),
    [
      `Port ${port}`,
      "Listen 127.0.0.1",
      "Timeout 600",
      "MaxClients 4000",
      "LogLevel Critical",
      `LogFile "${join(dir, "tinyproxy.log")}"`,
      "Allow 127.0.0.1",
      "DisableViaHeader Yes",
      "BasicAuth bench bench-password",
      ...(process.getuid?.() === 0 ? ["User nobody", "Group nogroup"] : []),
    ].join("\n"),
  );
  const child = spawn(TINYPROXY, ["-d", "-c", join(dir, "tinyproxy.conf")], { stdio: "ignore" });
  await waitForPort(port, 100);
  return { child, port, dir };
}

export const SQUID = "/usr/sbin/squid";

/** squid as most operators run it in front of nothing: no cache, no authentication, one worker,
 * its own configuration on a private port, as the unprivileged `proxy` user when started as root. */
export async function startSquid(): Promise<{ child: ChildProcess; port: number; dir: string } | null> {
  if (!existsSync(SQUID)) return null;
  const dir = mkdtempSync(join(tmpdir(), "bench-squid-"));
  chmodSync(dir, 0o777);
  const port = await freePort();
  writeFileSync(
    join(dir, "squid.conf"),
    [
      `http_port 127.0.0.1:${port}`,
      "http_access allow all",
      "cache deny all",
      "cache_mem 0 MB",
      "access_log none",
      `cache_log ${join(dir, "cache.log")}`,
      `pid_filename ${join(dir, "squid.pid")}`,
      `coredump_dir ${dir}`,
      "shutdown_lifetime 0 seconds",
      "forwarded_for delete",
      "via off",
      "workers 1",
      ...(process.getuid?.() === 0 ? ["cache_effective_user proxy", "cache_effective_group proxy"] : []),
    ].join("\n"),
  );
  const child = spawn(SQUID, ["-N", "-f", join(dir, "squid.conf")], { stdio: "ignore" });
  await waitForPort(port);
  return { child, port, dir };
}
