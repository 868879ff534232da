import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitForPort } from "../../testing.ts";

/** A real forward proxy (Debian's squid or tinyproxy) running its distribution's default
 * configuration, only moved to a private port and a temporary directory. */
export interface ReferenceProxy {
  port: number;
  url: string;
  close(): Promise<void>;
}

export const SQUID = "/usr/sbin/squid";
export const TINYPROXY = "/usr/bin/tinyproxy";

async function run(command: string, args: string[], port: number, dir: string): Promise<ReferenceProxy> {
  const child: ChildProcess = spawn(command, args, { stdio: "ignore" });
  await waitForPort(port);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** squid with /etc/squid/squid.conf as Debian ships it (CONNECT only to 443, plain requests from
 * localhost allowed); the listening port, pid file, logs and spool moved to a temporary directory. */
export async function startDefaultSquid(): Promise<ReferenceProxy | null> {
  if (!existsSync(SQUID) || !existsSync("/etc/squid/squid.conf")) return null;
  const dir = mkdtempSync(join(tmpdir(), "gateway-squid-"));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const defaults = readFileSync("/etc/squid/squid.conf", "utf8")
    .split("\n")
    .filter((line) => !/^\s*(http_port|coredump_dir|include)\b/.test(line));
  writeFileSync(
    join(dir, "squid.conf"),
    [
      ...defaults,
      `http_port 127.0.0.1:${port}`,
      `coredump_dir ${dir}`,
      `pid_filename ${join(dir, "squid.pid")}`,
      `cache_log ${join(dir, "cache.log")}`,
      "access_log none",
      "shutdown_lifetime 0 seconds",
      ...(process.getuid?.() === 0 ? ["cache_effective_user proxy", "cache_effective_group proxy"] : []),
    ].join("\n"),
  );
  return run(SQUID, ["-N", "-f", join(dir, "squid.conf")], port, dir);
}

/** tinyproxy with /etc/tinyproxy/tinyproxy.conf as Debian ships it; port, log and pid file moved. */
export async function startDefaultTinyproxy(): Promise<ReferenceProxy | null> {
  if (!existsSync(TINYPROXY) || !existsSync("/etc/tinyproxy/tinyproxy.conf")) return null;
  const dir = mkdtempSync(join(tmpdir(), "gateway-tinyproxy-"));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const defaults = readFileSync("/etc/tinyproxy/tinyproxy.conf", "utf8")
    .split("\n")
    .filter((line) => !/^\s*(Port|Listen|LogFile|PidFile|User|Group|Syslog)\b/.test(line));
  writeFileSync(
    join(dir, "tinyproxy.conf"),
    [
      ...defaults,
      `Port ${port}`,
      "Listen 127.0.0.1",
      `LogFile "${join(dir, "tinyproxy.log")}"`,
      `PidFile "${join(dir, "tinyproxy.pid")}"`,
      ...(process.getuid?.() === 0 ? ["User nobody", "Group nogroup"] : []),
    ].join("\n"),
  );
  return run(TINYPROXY, ["-d", "-c", join(dir, "tinyproxy.conf")], port, dir);
}
