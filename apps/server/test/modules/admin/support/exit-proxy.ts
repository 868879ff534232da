import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort, waitForPort } from "@bytetoll/gateway/testing";

const run = promisify(execFile);

/** A real tinyproxy on loopback that asks for Basic credentials and tunnels to any port. */
export interface Tinyproxy {
  port: number;
  /** What tinyproxy logged (one line per connection it served, with its CONNECT target). */
  log(): string;
  close(): Promise<void>;
}

export async function startTinyproxy(username: string, password: string): Promise<Tinyproxy> {
  const dir = mkdtempSync(join(tmpdir(), "exits-tinyproxy-"));
  const port = await freePort();
  const log = join(dir, "tinyproxy.log");
  writeFileSync(
    join(dir, "tinyproxy.conf"),
    [
      `Port ${port}`,
      "Listen 127.0.0.1",
      "Timeout 30",
      "MaxClients 20",
      "LogLevel Info",
      `LogFile "${log}"`,
      `PidFile "${join(dir, "tinyproxy.pid")}"`,
      "Allow 127.0.0.1",
      `BasicAuth ${username} ${password}`,
      // No ConnectPort line: CONNECT to any port (the test site is on a free one).
      ...(process.getuid?.() === 0 ? ["User nobody", "Group nogroup"] : []),
    ].join("\n"),
  );
  // The log file must be writable by the user tinyproxy drops to.
  writeFileSync(log, "");
  await run("chmod", ["-R", "a+rwX", dir]);
  const child: ChildProcess = spawn("/usr/bin/tinyproxy", ["-d", "-c", join(dir, "tinyproxy.conf")], {
    stdio: "ignore",
  });
  await waitForPort(port);
  return {
    port,
    log: () => readFileSync(log, "utf8"),
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

/** One GET through the gateway's HTTP port in a CONNECT tunnel (curl -p): the CONNECT answer's
 * status and the site's (0: none). */
export async function tunnelGet(
  gatewayPort: number,
  username: string,
  password: string,
  url: string,
): Promise<{ connect: number; status: number }> {
  const { stdout } = await run("curl", [
    "-s",
    "-p",
    "-o",
    "/dev/null",
    "-w",
    "%{http_connect} %{http_code}",
    "--max-time",
    "15",
    "-x",
    `http://${encodeURIComponent(username)}:${encodeURIComponent(password)}@127.0.0.1:${gatewayPort}`,
    url,
  ]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "0 0" }));
  const [connect, status] = stdout.trim().split(" ").map(Number);
  return { connect: connect ?? 0, status: status ?? 0 };
}
