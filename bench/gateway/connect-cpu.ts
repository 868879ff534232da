import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuMs, type Ready, startChild } from "./children.ts";
import { bulkDownload, type Path } from "./load.ts";

/**
 * `tsx bench/gateway/connect-cpu.ts`: only the CONNECT bulk download, for tuning the tunnel's
 * relay between full `bench:gateway` runs. Prints each round's MB/s and the gateway process's CPU
 * time (user + system) per GB, for the gateway with its tunnels spliced (when the addon is built)
 * and relayed in JavaScript (GATEWAY_SPLICE=off); BENCH_BASELINE=<checkout> alternates with that
 * checkout's gateway too.
 * BENCH_FLOOR=1 adds relay-floor.c (needs `cc`) in its read/write and splice modes. BENCH_STRACE=1
 * pauses before the rounds with the subjects' pids, for `strace -c -f -p <pid>`.
 */

const BYTES = Number(process.env.BENCH_BYTES ?? 200_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const here = fileURLToPath(new URL(".", import.meta.url));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

interface Subject {
  name: string;
  child: ChildProcess;
  path: Path;
  stop: () => void;
}

function gatewaySubject(name: string, started: { child: ChildProcess; ready: Ready }): Subject {
  const { child, ready } = started;
  const authorization = `Basic ${Buffer.from(`${ready.username}:${ready.password}`).toString("base64")}`;
  return {
    name,
    child,
    path: { name, port: ready.port, proxy: true, authorization },
    stop: () => {
      child.removeAllListeners("exit");
      child.disconnect();
    },
  };
}

/** relay-floor.c, built with the system's C compiler, in read/write and in splice mode: what a
 * relay costs on this machine with no JavaScript, and with no user-space copy. */
async function floorSubjects(originPort: number): Promise<Subject[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-floor-"));
  const binary = join(dir, "relay-floor");
  execFileSync("cc", ["-O2", "-o", binary, join(here, "relay-floor.c")]);
  const subjects: Subject[] = [];
  for (const [name, mode] of [
    ["C read/write", "r"],
    ["C splice", "s"],
  ] as const) {
    const port = await freePort();
    const child = spawn(binary, [String(port), String(originPort), mode], { stdio: "ignore" });
    subjects.push({ name, child, path: { name, port, proxy: false }, stop: () => child.kill() });
  }
  await new Promise((r) => setTimeout(r, 200));
  rmSync(dir, { recursive: true, force: true });
  return subjects;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function main(): Promise<void> {
  const origin = await startChild(join(here, "origin-process.ts"));
  const originPort = origin.ready.port;
  const subjects = [
    gatewaySubject("gateway", await startChild(join(here, "gateway-process.ts"))),
    gatewaySubject(
      "gateway JS",
      await startChild(join(here, "gateway-process.ts"), { GATEWAY_SPLICE: "off" }),
    ),
  ];
  const baselineDir = process.env.BENCH_BASELINE;
  if (baselineDir)
    subjects.push(
      gatewaySubject("baseline", await startChild(join(baselineDir, "bench/gateway/gateway-process.ts"))),
    );
  if (process.env.BENCH_FLOOR) subjects.push(...(await floorSubjects(originPort)));
  try {
    for (const { path } of subjects) await bulkDownload(path, originPort, 50_000_000, true);
    if (process.env.BENCH_STRACE) {
      console.log(`pids: ${subjects.map((s) => `${s.name} ${s.child.pid}`).join(", ")}; starting in 5 s`);
      await new Promise((r) => setTimeout(r, 5000));
    }
    const results = subjects.map(() => ({ rates: [] as number[], cpu: [] as number[] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, subject] of subjects.entries()) {
        const pid = subject.child.pid as number;
        const mark = cpuMs(pid);
        const rate = await bulkDownload(subject.path, originPort, BYTES, true);
        const cpu = ((cpuMs(pid) - mark) * 1e9) / BYTES;
        results[i]?.rates.push(rate);
        results[i]?.cpu.push(cpu);
        console.log(
          `${subject.name.padEnd(13)} ${rate.toFixed(0).padStart(6)} MB/s ${cpu.toFixed(0).padStart(6)} ms CPU/GB`,
        );
      }
    }
    for (const [i, subject] of subjects.entries()) {
      const r = results[i] as (typeof results)[number];
      console.log(
        `median ${subject.name}: ${median(r.rates).toFixed(0)} MB/s, ${median(r.cpu).toFixed(0)} ms CPU/GB`,
      );
    }
  } finally {
    origin.child.removeAllListeners("exit");
    origin.child.disconnect();
    for (const subject of subjects) subject.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
