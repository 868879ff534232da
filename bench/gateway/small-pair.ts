import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuMs, type Ready, startChild } from "./children.ts";
import { type Path, smallRequests } from "./load.ts";

/**
 * `BENCH_BASELINE=<checkout> npx tsx bench/gateway/small-pair.ts`: the plain small-request path
 * of this tree's gateway against that checkout's, in short alternating slices (ABBA…), so load
 * that comes and goes on a shared machine falls on both alike. Each slice sends 50 connections ×
 * 40 small requests (throughput and the gateway's CPU per request) and 200 serial requests on one
 * connection (the latency a request adds). Totals over all slices are compared. Read CPU per
 * request: this tree against itself came out within 2.4 % on it, but 86 % on req/s (the gateway
 * started first lost on every slice), so a req/s difference of 10–15 % means nothing here.
 * When this tree's gateway has a sub-user (it does: gateway-process.ts makes one), the same
 * gateway through the sub-user's credentials is a third subject: what the sub-user look-up and
 * its allowance cost a request. Slices walk the six orders of the three subjects in turn.
 */

const SLICES = Number(process.env.BENCH_SLICES ?? 30);
const CONNECTIONS = 50;
const PER_CONNECTION = 40;
const SERIAL = 200;
const here = fileURLToPath(new URL(".", import.meta.url));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function pathOf(name: string, ready: Ready): Path {
  const authorization = `Basic ${Buffer.from(`${ready.username}:${ready.password}`).toString("base64")}`;
  return { name, port: ready.port, proxy: true, authorization };
}

/** Every order of `items` (six for three subjects). */
function permutations(items: number[]): number[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

async function main(): Promise<void> {
  const baselineDir = process.env.BENCH_BASELINE;
  if (!baselineDir) throw new Error("BENCH_BASELINE=<checkout> names the gateway to compare with");
  const origin = await startChild(join(here, "origin-process.ts"));
  const current = await startChild(join(here, "gateway-process.ts"));
  const subjects = [
    { name: "this tree", ...current },
    { name: "baseline", ...(await startChild(join(baselineDir, "bench/gateway/gateway-process.ts"))) },
  ];
  if (current.ready.subuserUsername) {
    const ready = {
      ...current.ready,
      username: current.ready.subuserUsername,
      password: current.ready.subuserPassword,
    };
    subjects.push({ name: "sub-user", child: current.child, ready });
  }
  const orders = permutations(subjects.map((_, i) => i));
  const originPort = origin.ready.port;
  try {
    for (const subject of subjects)
      await smallRequests(pathOf(subject.name, subject.ready), originPort, CONNECTIONS, PER_CONNECTION);
    const totals = subjects.map(() => ({ requests: 0, seconds: 0, cpuMs: 0, serialP50: [] as number[] }));
    for (let slice = 0; slice < SLICES; slice++) {
      for (const i of orders[slice % orders.length]!) {
        const subject = subjects[i]!;
        const total = totals[i]!;
        const path = pathOf(subject.name, subject.ready);
        const pid = subject.child.pid ?? 0;
        const cpuBefore = cpuMs(pid);
        const load = await smallRequests(path, originPort, CONNECTIONS, PER_CONNECTION);
        total.cpuMs += cpuMs(pid) - cpuBefore;
        total.requests += CONNECTIONS * PER_CONNECTION;
        total.seconds += (CONNECTIONS * PER_CONNECTION) / load.requestsPerSecond;
        total.serialP50.push((await smallRequests(path, originPort, 1, SERIAL)).p50Ms);
      }
    }
    console.log(
      `plain small requests, ${SLICES} alternating slices of ${CONNECTIONS}×${PER_CONNECTION} + ${SERIAL} serial, this tree against ${baselineDir}:`,
    );
    const figures = totals.map((t) => ({
      rps: t.requests / t.seconds,
      cpuUs: (t.cpuMs * 1000) / t.requests,
      p50: median(t.serialP50),
    }));
    for (const [i, f] of figures.entries())
      console.log(
        `  ${subjects[i]!.name.padEnd(10)} ${f.rps.toFixed(0).padStart(7)} req/s @${CONNECTIONS}, ${f.cpuUs.toFixed(0).padStart(4)} µs CPU per request, serial p50 ${f.p50.toFixed(3)} ms`,
      );
    const before = figures[1]!;
    for (const [i, now] of figures.entries()) {
      if (i === 1) continue;
      console.log(
        `  ${subjects[i]!.name}: ${((now.rps / before.rps) * 100).toFixed(1)}% of the baseline's req/s, ` +
          `${((now.cpuUs / before.cpuUs) * 100).toFixed(1)}% of its CPU per request, serial p50 ${(now.p50 - before.p50).toFixed(3)} ms apart`,
      );
    }
    if (figures[2]) {
      const [own, sub] = [figures[0]!, figures[2]];
      console.log(
        `  sub-user against this tree's own credentials: ${((sub.cpuUs / own.cpuUs) * 100).toFixed(1)}% of the CPU per request`,
      );
    }
  } finally {
    for (const child of new Set([origin.child, ...subjects.map((s) => s.child)])) {
      child.removeAllListeners("exit");
      child.disconnect();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
