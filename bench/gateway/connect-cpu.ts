import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bulkDownload } from "./load.ts";

/**
 * `tsx bench/gateway/connect-cpu.ts`: only the CONNECT bulk download, for tuning the tunnel's
 * relay between full `bench:gateway` runs. Prints each round's MB/s and the gateway process's CPU
 * time (user + system) per GB; BENCH_BASELINE=<checkout> alternates with that checkout's gateway.
 * BENCH_STRACE=1 pauses before the rounds with the gateway pids, for `strace -c -f -p <pid>`.
 */

const BYTES = Number(process.env.BENCH_BYTES ?? 200_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const here = fileURLToPath(new URL(".", import.meta.url));

interface Ready {
  type: "ready";
  port: number;
  username?: string;
  password?: string;
}

function startChild(file: string): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, ["--import", "tsx", "--expose-gc", file], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${file} exited with ${code}`)));
    child.on("message", (message: Ready) => {
      if (message.type === "ready") resolve({ child, ready: message });
    });
  });
}

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const origin = await startChild(join(here, "origin-process.ts"));
  const gateways = [{ name: "gateway", ...(await startChild(join(here, "gateway-process.ts"))) }];
  const baselineDir = process.env.BENCH_BASELINE;
  if (baselineDir)
    gateways.push({
      name: "baseline",
      ...(await startChild(join(baselineDir, "bench/gateway/gateway-process.ts"))),
    });
  try {
    const paths = gateways.map(({ ready }) => ({
      name: "",
      port: ready.port,
      proxy: true,
      authorization: `Basic ${Buffer.from(`${ready.username}:${ready.password}`).toString("base64")}`,
    }));
    for (const path of paths) await bulkDownload(path, origin.ready.port, 50_000_000, true);
    if (process.env.BENCH_STRACE) {
      console.log(`pids: ${gateways.map((g) => `${g.name} ${g.child.pid}`).join(", ")}; starting in 5 s`);
      await new Promise((r) => setTimeout(r, 5000));
    }
    const results = gateways.map(() => ({ rates: [] as number[], cpu: [] as number[] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, gateway] of gateways.entries()) {
        const pid = gateway.child.pid as number;
        const mark = cpuMs(pid);
        const rate = await bulkDownload(paths[i] as (typeof paths)[number], origin.ready.port, BYTES, true);
        const cpu = ((cpuMs(pid) - mark) * 1e9) / BYTES;
        results[i]?.rates.push(rate);
        results[i]?.cpu.push(cpu);
        console.log(
          `${gateway.name.padEnd(9)} ${rate.toFixed(0).padStart(6)} MB/s ${cpu.toFixed(0).padStart(6)} ms CPU/GB`,
        );
      }
    }
    for (const [i, gateway] of gateways.entries()) {
      const r = results[i] as (typeof results)[number];
      console.log(
        `median ${gateway.name}: ${median(r.rates).toFixed(0)} MB/s, ${median(r.cpu).toFixed(0)} ms CPU/GB`,
      );
    }
  } finally {
    for (const { child } of [origin, ...gateways]) {
      child.removeAllListeners("exit");
      child.disconnect();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
