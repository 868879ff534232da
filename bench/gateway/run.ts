import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bulkDownload, idleTunnels, type LatencyResult, type Path, smallRequests } from "./load.ts";

/**
 * `npm run bench:gateway`: the gateway beside a direct connection and tinyproxy, measured in the
 * same run on loopback. Every phase has a fixed amount of work, so the run ends by itself.
 */

const BULK_BYTES = 200_000_000;
const BULK_RUNS = 3;
const CONNECTIONS = 50;
const REQUESTS_PER_CONNECTION = 200;
const IDLE_TUNNELS = 1000;
const TINYPROXY = "/usr/bin/tinyproxy";
const here = fileURLToPath(new URL(".", import.meta.url));

interface Ready {
  type: "ready";
  port: number;
  username?: string;
  password?: string;
}

function startChild(file: string): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, ["--import", "tsx", "--expose-gc", join(here, file)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${file} exited with ${code}`)));
    child.on("message", (message: Ready) => {
      if (message.type === "ready") resolve({ child, ready: message });
    });
  });
}

function ask<T>(child: ChildProcess, type: string, reply: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (message: { type: string } & T) => {
      if (message.type !== reply) return;
      child.off("message", onMessage);
      resolve(message);
    };
    child.on("message", onMessage);
    child.send({ type });
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

async function startTinyproxy(): Promise<{ child: ChildProcess; port: number; dir: string } | null> {
  if (!existsSync(TINYPROXY)) return null;
  const dir = mkdtempSync(join(tmpdir(), "bench-tinyproxy-"));
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
  await waitForPort(port);
  return { child, port, dir };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

interface Measured {
  plainMBps: number;
  connectMBps: number;
  small: LatencyResult;
  idleMbPer1000: number | null;
  /** CPU the proxy process itself spent (user + system, all threads): robust on a busy box. */
  plainCpuMsPerGb: number | null;
  connectCpuMsPerGb: number | null;
  cpuUsPerRequest: number | null;
}

/** user + system CPU of a process and all its threads, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  const ticksPerSecond = 100;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

async function measure(
  path: Path,
  originPort: number,
  pid: number | null,
  gc: () => Promise<void>,
): Promise<Measured> {
  process.stdout.write(`measuring ${path.name}…\n`);
  await smallRequests(path, originPort, CONNECTIONS, 20);
  await bulkDownload(path, originPort, 10_000_000, false);

  // Idle tunnels first, before bulk transfers have grown the heap.
  let idleMbPer1000: number | null = null;
  if (pid !== null && path.proxy) {
    const warm = await idleTunnels(path, originPort, 100);
    for (const socket of warm) socket.destroy();
    await gc();
    await new Promise((r) => setTimeout(r, 300));
    const before = rssMb(pid);
    const sockets = await idleTunnels(path, originPort, IDLE_TUNNELS);
    await gc();
    await new Promise((r) => setTimeout(r, 300));
    const after = rssMb(pid);
    for (const socket of sockets) socket.destroy();
    idleMbPer1000 = ((after - before) * 1000) / IDLE_TUNNELS;
    await new Promise((r) => setTimeout(r, 300));
  }

  const cpu = () => (pid === null ? 0 : cpuMs(pid));
  const plain: number[] = [];
  const tunnel: number[] = [];
  let cpuPlain = 0;
  let cpuTunnel = 0;
  for (let i = 0; i < BULK_RUNS; i++) {
    let mark = cpu();
    plain.push(await bulkDownload(path, originPort, BULK_BYTES, false));
    cpuPlain += cpu() - mark;
    mark = cpu();
    tunnel.push(await bulkDownload(path, originPort, BULK_BYTES, true));
    cpuTunnel += cpu() - mark;
  }
  const mark = cpu();
  const small = await smallRequests(path, originPort, CONNECTIONS, REQUESTS_PER_CONNECTION);
  const cpuSmall = cpu() - mark;
  const gigabytes = (BULK_RUNS * BULK_BYTES) / 1e9;
  const proxied = pid !== null;
  return {
    plainMBps: median(plain),
    connectMBps: median(tunnel),
    small,
    idleMbPer1000,
    plainCpuMsPerGb: proxied ? cpuPlain / gigabytes : null,
    connectCpuMsPerGb: proxied ? cpuTunnel / gigabytes : null,
    cpuUsPerRequest: proxied ? (cpuSmall * 1000) / (CONNECTIONS * REQUESTS_PER_CONNECTION) : null,
  };
}

function row(label: string, values: Array<number | null | string>, digits = 0): string {
  const cells = values.map((v) => (typeof v === "number" ? v.toFixed(digits) : (v ?? "—")).padStart(12));
  return `${label.padEnd(46)}${cells.join("")}`;
}

async function main(): Promise<void> {
  const origin = await startChild("origin-process.ts");
  const gateway = await startChild("gateway-process.ts");
  const tinyproxy = await startTinyproxy();
  const originPort = origin.ready.port;
  const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
  const noGc = async () => {};
  try {
    console.log(
      `ByteToll gateway benchmark — loopback, ${BULK_RUNS}× ${BULK_BYTES / 1e6} MB bulk, ` +
        `${CONNECTIONS}×${REQUESTS_PER_CONNECTION} small requests, ${IDLE_TUNNELS} idle tunnels\n`,
    );
    const direct = await measure({ name: "direct", port: originPort, proxy: false }, originPort, null, noGc);
    const viaGateway = await measure(
      {
        name: "gateway",
        port: gateway.ready.port,
        proxy: true,
        authorization: basic(gateway.ready.username ?? "", gateway.ready.password ?? ""),
      },
      originPort,
      gateway.child.pid ?? null,
      () => ask(gateway.child, "gc", "gc-done"),
    );
    const viaTinyproxy = tinyproxy
      ? await measure(
          {
            name: "tinyproxy",
            port: tinyproxy.port,
            proxy: true,
            authorization: basic("bench", "bench-password"),
          },
          originPort,
          tinyproxy.child.pid ?? null,
          noGc,
        )
      : null;
    const columns = [direct, viaGateway, viaTinyproxy];
    console.log(row("", ["direct", "gateway", "tinyproxy"]));
    console.log(
      row(
        "bulk download, plain HTTP (MB/s)",
        columns.map((c) => c?.plainMBps ?? null),
      ),
    );
    console.log(
      row(
        "bulk download, CONNECT tunnel (MB/s)",
        columns.map((c) => c?.connectMBps ?? null),
      ),
    );
    console.log(
      row(
        `small requests @${CONNECTIONS} connections (req/s)`,
        columns.map((c) => c?.small.requestsPerSecond ?? null),
      ),
    );
    console.log(
      row(
        "  latency p50 (ms)",
        columns.map((c) => c?.small.p50Ms ?? null),
        2,
      ),
    );
    console.log(
      row(
        "  latency p99 (ms)",
        columns.map((c) => c?.small.p99Ms ?? null),
        2,
      ),
    );
    console.log(
      row(
        "memory per 1,000 idle tunnels (MB RSS)",
        columns.map((c) => c?.idleMbPer1000 ?? null),
        1,
      ),
    );
    console.log(
      row(
        "proxy CPU per GB, plain HTTP (ms)",
        columns.map((c) => c?.plainCpuMsPerGb ?? null),
      ),
    );
    console.log(
      row(
        "proxy CPU per GB, CONNECT (ms)",
        columns.map((c) => c?.connectCpuMsPerGb ?? null),
      ),
    );
    console.log(
      row(
        "proxy CPU per small request (µs)",
        columns.map((c) => c?.cpuUsPerRequest ?? null),
      ),
    );
    console.log(
      `\ngateway adds ${(viaGateway.small.p50Ms - direct.small.p50Ms).toFixed(2)} ms at p50 over direct` +
        ` (each request here waits behind ${CONNECTIONS - 1} others on 2 CPUs shared by client, proxy and origin)`,
    );
    if (!tinyproxy) console.log(`tinyproxy skipped: ${TINYPROXY} is not installed`);
    const usage = await ask<{ bytes: number }>(gateway.child, "usage", "usage");
    console.log(
      `gateway metered ${(usage.bytes / 1e9).toFixed(2)} GB in this run (committed to its database)`,
    );
  } finally {
    origin.child.removeAllListeners("exit");
    gateway.child.removeAllListeners("exit");
    origin.child.disconnect();
    gateway.child.disconnect();
    if (tinyproxy) {
      tinyproxy.child.kill("SIGTERM");
      rmSync(tinyproxy.dir, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
