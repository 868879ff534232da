import { type ChildProcess, execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import tls from "node:tls";
import { fileURLToPath } from "node:url";
import { SQUID, startSquid, startTinyproxy, TINYPROXY } from "../footprint/processes.ts";
import { cpuSpentMs, type Ready, startChild, treeCpuSplitMs } from "./children.ts";

/**
 * `npm run bench:tunnels`: the workload scrapers send — many short connections, each a new TCP
 * connection, a tunnel (HTTP CONNECT or SOCKS5) or a plain request, one 20 KB page, close — through
 * the gateway's 8080, 8443 and SOCKS5 fronts, beside squid, tinyproxy and a direct connection,
 * measured in the same run on loopback. Rounds alternate between subjects; medians are reported.
 * Every phase has a fixed number of connections, so the run ends by itself.
 */

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const PER_CLIENT = Number(process.env.BENCH_PER_CLIENT ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGE_BYTES = 20_000;
/** BENCH_DESTINATION_RULES=1000: two more gateways in the run, one reading no destination rules
 * and one reading this many, so the rule check's cost per short tunnel is read off side by side. */
const DESTINATION_RULES = Number(process.env.BENCH_DESTINATION_RULES ?? 0);
const here = fileURLToPath(new URL(".", import.meta.url));

type Front =
  | { kind: "direct" }
  | { kind: "http"; port: number; tls?: boolean; authorization?: string }
  | { kind: "socks"; port: number; username: string; password: string };

interface Subject {
  name: string;
  front: Front;
  /** The proxy's process (its CPU); null for the direct path. */
  pid: number | null;
  /** It carries CONNECT tunnels and nothing else (the floor). */
  tunnelsOnly?: boolean;
}

type Workload = "tunnel" | "tunnel, TLS to the site" | "plain HTTP";
/** BENCH_WORKLOADS=tunnel,plain HTTP and BENCH_ONLY=gateway,squid narrow a run (a profile, strace). */
const WORKLOADS = (["tunnel", "tunnel, TLS to the site", "plain HTTP"] as Workload[]).filter(
  (workload) => !process.env.BENCH_WORKLOADS || process.env.BENCH_WORKLOADS.split(",").includes(workload),
);
const only = (name: string) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(",").includes(name);

/** Writes `send` (if any) and collects what arrives until `complete` says how much of it was the
 * answer (null: not yet); resolves with the answer's bytes. */
function exchange(
  socket: net.Socket,
  send: Buffer | string | null,
  complete: (data: Buffer) => number | null,
) {
  return new Promise<Buffer>((resolve, reject) => {
    let data: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      data = data.length === 0 ? chunk : Buffer.concat([data, chunk]);
      const used = complete(data);
      if (used === null) return;
      cleanup();
      if (used < data.length) socket.unshift(data.subarray(used));
      resolve(data.subarray(0, used));
    };
    const onEnd = () => {
      cleanup();
      reject(new Error(`closed after ${data.length} bytes: ${data.subarray(0, 80).toString("latin1")}`));
    };
    const cleanup = () => {
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.off("error", onEnd);
    };
    socket.on("data", onData);
    socket.once("end", onEnd);
    socket.once("error", onEnd);
    if (send) socket.write(send);
  });
}

const bytes = (count: number) => (data: Buffer) => (data.length >= count ? count : null);
const headEnd = (data: Buffer) => {
  const end = data.indexOf("\r\n\r\n");
  return end === -1 ? null : end + 4;
};

/** Reads one response with a Content-Length body. */
async function response(socket: net.Socket, request: string): Promise<void> {
  let total: number | null = null;
  await exchange(socket, request, (data) => {
    if (total === null) {
      const end = headEnd(data);
      if (end === null) return null;
      const head = data.subarray(0, end).toString("latin1");
      if (!/^HTTP\/1\.[01] 200/.test(head)) throw new Error(head.split("\r\n")[0]);
      total = end + Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    }
    return data.length >= total ? total : null;
  });
}

function connect(port: number, overTls = false): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = overTls
      ? tls.connect({ port, host: "127.0.0.1", rejectUnauthorized: false }, () => resolve(socket))
      : net.connect(port, "127.0.0.1", () => resolve(socket));
    socket.setNoDelay(true);
    socket.once("error", reject);
  });
}

/** A new connection whose stream reaches the site (through the front's tunnel). */
async function tunnelTo(front: Front, sitePort: number): Promise<net.Socket> {
  if (front.kind === "direct") return connect(sitePort);
  if (front.kind === "http") {
    const socket = await connect(front.port, front.tls);
    const auth = front.authorization ? `Proxy-Authorization: ${front.authorization}\r\n` : "";
    const head = await exchange(
      socket,
      `CONNECT 127.0.0.1:${sitePort} HTTP/1.1\r\nHost: 127.0.0.1:${sitePort}\r\n${auth}\r\n`,
      headEnd,
    );
    if (!/^HTTP\/1\.[01] 200/.test(head.toString("latin1"))) throw new Error(`CONNECT: ${head}`);
    return socket;
  }
  const socket = await connect(front.port);
  await exchange(socket, Buffer.from([5, 1, 2]), bytes(2));
  const user = Buffer.from(front.username);
  const password = Buffer.from(front.password);
  const status = await exchange(
    socket,
    Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([password.length]), password]),
    bytes(2),
  );
  if (status[1] !== 0) throw new Error("SOCKS5 credentials refused");
  const reply = await exchange(
    socket,
    Buffer.from([5, 1, 0, 1, 127, 0, 0, 1, sitePort >> 8, sitePort & 0xff]),
    bytes(10),
  );
  if (reply[1] !== 0) throw new Error(`SOCKS5 reply ${reply[1]}`);
  return socket;
}

const GET_PAGE = `GET /bytes/${PAGE_BYTES} HTTP/1.1\r\nHost: site\r\n\r\n`;

/** One short connection of a workload, start to close; resolves when the page has arrived. */
async function once(front: Front, workload: Workload, site: Site): Promise<void> {
  if (workload === "plain HTTP") {
    if (front.kind === "socks") throw new Error("SOCKS5 carries tunnels only");
    const socket = await connect(
      front.kind === "direct" ? site.port : front.port,
      front.kind === "http" && front.tls,
    );
    const target =
      front.kind === "direct" ? `/bytes/${PAGE_BYTES}` : `http://127.0.0.1:${site.port}/bytes/${PAGE_BYTES}`;
    const auth =
      front.kind === "http" && front.authorization ? `Proxy-Authorization: ${front.authorization}\r\n` : "";
    await response(socket, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${site.port}\r\n${auth}\r\n`);
    socket.destroy();
    return;
  }
  const secure = workload === "tunnel, TLS to the site";
  const raw = await tunnelTo(front, secure ? site.tlsPort : site.port);
  if (!secure) {
    await response(raw, GET_PAGE);
    raw.destroy();
    return;
  }
  const inner = await new Promise<tls.TLSSocket>((resolve, reject) => {
    const socket = tls.connect({ socket: raw, rejectUnauthorized: false, servername: "localhost" }, () =>
      resolve(socket),
    );
    socket.once("error", reject);
  });
  await response(inner, GET_PAGE);
  inner.destroy();
  raw.destroy();
}

interface RoundResult {
  perSecond: number;
  p50: number;
  p99: number;
  cpuMsPer1000: number | null;
  /** The kernel's part of the proxy's CPU. */
  systemMsPer1000: number | null;
  /** What the other end of every connection costs: this process's clients and the site. */
  peersMsPer1000: number;
}

interface Site {
  port: number;
  tlsPort: number;
  pid: number;
}

const NO_CPU = { user: 0, system: 0, total: 0 };

async function round(subject: Subject, workload: Workload, site: Site) {
  const latencies: number[] = [];
  const cpuBefore = subject.pid === null ? NO_CPU : treeCpuSplitMs(subject.pid);
  const clientsBefore = process.cpuUsage();
  const siteBefore = treeCpuSplitMs(site.pid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < PER_CLIENT; i++) {
        const at = performance.now();
        await once(subject.front, workload, site);
        latencies.push(performance.now() - at);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const clients = process.cpuUsage(clientsBefore);
  const siteAfter = treeCpuSplitMs(site.pid);
  const peersMs = (clients.user + clients.system) / 1000 + cpuSpentMs(siteBefore, siteAfter).total;
  const cpu = subject.pid === null ? null : cpuSpentMs(cpuBefore, treeCpuSplitMs(subject.pid));
  const per1000 = (ms: number) => (ms * 1000) / latencies.length;
  return {
    perSecond: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    cpuMsPer1000: cpu === null ? null : per1000(cpu.total),
    systemMsPer1000: cpu === null ? null : per1000(cpu.system),
    peersMsPer1000: per1000(peersMs),
  } satisfies RoundResult;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const CELL = 14;
function line(label: string, values: Array<string | number | null>, digits = 0): string {
  return `${label.padEnd(34)}${values
    .map((v) => ` ${(typeof v === "number" ? v.toFixed(digits) : (v ?? "—")).padStart(CELL - 1)}`)
    .join("")}`;
}

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

/** The clustered gateway's 8080 and SOCKS5 fronts (`which`: this checkout's or the baseline's);
 * its CPU is its whole process tree's. */
function workerSubjects(ready: Ready, which = "gateway"): Subject[] {
  const name = `${which} ×${process.env.BENCH_WORKERS ?? 2}`;
  const { username = "", password = "" } = ready;
  const pid = ready.pid ?? null;
  return [
    { name, front: { kind: "http", port: ready.port, authorization: basic(username, password) }, pid },
    {
      name: `${name} SOCKS5`,
      front: { kind: "socks", port: ready.socksPort as number, username, password },
      pid,
    },
  ];
}

/** BENCH_PIN=1: every proxy on the second core, this process's clients and the site on the
 * first, so a proxy's CPU per connection is not swayed by how the scheduler mixed it with the
 * clients in a round (it varies by half between rounds on two shared cores). */
const PIN = process.env.BENCH_PIN === "1";
function childrenOf(pid: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there is none
  }
}
function pinCores(sitePid: number, subjects: Subject[]): void {
  const pin = (core: number, pid: number) =>
    execFileSync("taskset", ["-a", "-p", "-c", String(core), String(pid)], { stdio: "ignore" });
  pin(0, process.pid);
  pin(0, sitePid);
  for (const pid of new Set(subjects.map((subject) => subject.pid)))
    if (pid !== null) {
      pin(1, pid);
      // A clustered gateway's workers (and squid's kids) are its children.
      for (const child of childrenOf(pid)) pin(1, child);
    }
}

const NO_RULES = "0 rules";
const MANY_RULES = `${DESTINATION_RULES} rules`;

/** The two gateways that differ only by their destination rules, on the 8080 front. */
function ruleSubjects(none: { ready: Ready; child: ChildProcess }, many: typeof none, authorization: string) {
  return [
    {
      name: NO_RULES,
      front: { kind: "http", port: none.ready.port, authorization } as Front,
      pid: none.child.pid ?? null,
    },
    {
      name: MANY_RULES,
      front: { kind: "http", port: many.ready.port, authorization } as Front,
      pid: many.child.pid ?? null,
    },
  ];
}

/** What the rule check costs per short connection: the proxy's CPU with the rules against without. */
function reportRuleCost(
  measured: Subject[],
  cpuOf: (subject: Subject, workload: Workload) => number | null,
): void {
  const none = measured.find((s) => s.name === NO_RULES);
  const many = measured.find((s) => s.name === MANY_RULES);
  if (!none || !many) return;
  console.log(
    `\nDestination rules (${DESTINATION_RULES} loaded against none), proxy CPU per 1,000 connections:`,
  );
  for (const workload of WORKLOADS) {
    const without = cpuOf(none, workload);
    const withRules = cpuOf(many, workload);
    if (without === null || withRules === null) continue;
    const change = ((withRules - without) / without) * 100;
    console.log(
      `  ${workload.padEnd(24)} ${without.toFixed(0)} ms → ${withRules.toFixed(0)} ms (${change >= 0 ? "+" : ""}${change.toFixed(1)} %)`,
    );
  }
}

async function main(): Promise<void> {
  const origin = await startChild(join(here, "origin-process.ts"));
  const gateway = await startChild(join(here, "gateway-process.ts"));
  // Tunnels relayed in JavaScript (GATEWAY_SPLICE=off): what the splice set-up costs a short one.
  const javascript = await startChild(join(here, "gateway-process.ts"), { GATEWAY_SPLICE: "off" });
  // On PostgreSQL, the standalone gateway with its workers too (GATEWAY_WORKERS=BENCH_WORKERS).
  const workers = process.env.DATABASE_URL ? await startChild(join(here, "workers-process.ts")) : null;
  // BENCH_BASELINE=<another checkout, installed, its addon built>: that checkout's gateway too, so
  // a change is measured against what it changes in the same run, rounds alternating.
  const baselineDir = process.env.BENCH_BASELINE;
  const baseline = baselineDir
    ? await startChild(join(baselineDir, "bench", "gateway", "gateway-process.ts"))
    : null;
  const baselineWorkers =
    baselineDir && workers
      ? await startChild(join(baselineDir, "bench", "gateway", "workers-process.ts"))
      : null;
  const ruled =
    DESTINATION_RULES > 0
      ? {
          none: await startChild(join(here, "gateway-process.ts"), { BENCH_RULES: "0" }),
          many: await startChild(join(here, "gateway-process.ts"), {
            BENCH_RULES: String(DESTINATION_RULES),
          }),
        }
      : null;
  // BENCH_FLOOR=1: the splice addon driven by a few lines of JavaScript that check and bill
  // nothing (floor-process.ts): what a tunnel costs the kernel and the addon alone.
  const floor = process.env.BENCH_FLOOR === "1" ? await startChild(join(here, "floor-process.ts")) : null;
  const tinyproxy = await startTinyproxy();
  const squid = await startSquid();
  const peers: Array<{ child: ChildProcess; dir: string }> = [tinyproxy, squid].filter(
    (peer): peer is NonNullable<typeof peer> => peer !== null,
  );
  const site: Site = {
    port: origin.ready.port,
    tlsPort: origin.ready.tlsPort as number,
    pid: origin.child.pid as number,
  };
  const { username = "", password = "" } = gateway.ready;
  const authorization = basic(username, password);
  const gatewayPid = gateway.child.pid ?? null;
  const subjects: Subject[] = [
    { name: "direct", front: { kind: "direct" }, pid: null },
    { name: "gateway", front: { kind: "http", port: gateway.ready.port, authorization }, pid: gatewayPid },
    {
      name: "gateway 8443",
      front: { kind: "http", port: gateway.ready.tlsPort as number, tls: true, authorization },
      pid: gatewayPid,
    },
    {
      name: "gateway SOCKS5",
      front: { kind: "socks", port: gateway.ready.socksPort as number, username, password },
      pid: gatewayPid,
    },
    {
      name: "gateway JS",
      front: { kind: "http", port: javascript.ready.port, authorization },
      pid: javascript.child.pid ?? null,
    },
    {
      name: "gateway sub-user",
      front: {
        kind: "http",
        port: gateway.ready.port,
        authorization: basic(gateway.ready.subuserUsername ?? "", gateway.ready.subuserPassword ?? ""),
      },
      pid: gatewayPid,
    },
    ...(workers ? workerSubjects(workers.ready) : []),
    ...(baselineWorkers ? workerSubjects(baselineWorkers.ready, "baseline") : []),
    ...(ruled ? ruleSubjects(ruled.none, ruled.many, authorization) : []),
    ...(baseline
      ? [
          {
            name: "baseline",
            front: {
              kind: "http",
              port: baseline.ready.port,
              authorization: basic(baseline.ready.username ?? "", baseline.ready.password ?? ""),
            } as Front,
            pid: baseline.child.pid ?? null,
          },
          {
            name: "baseline SOCKS5",
            front: {
              kind: "socks",
              port: baseline.ready.socksPort as number,
              username: baseline.ready.username ?? "",
              password: baseline.ready.password ?? "",
            } as Front,
            pid: baseline.child.pid ?? null,
          },
        ]
      : []),
    ...(tinyproxy
      ? [
          {
            name: "tinyproxy",
            front: {
              kind: "http",
              port: tinyproxy.port,
              authorization: basic("bench", "bench-password"),
            } as Front,
            pid: tinyproxy.child.pid ?? null,
          },
        ]
      : []),
    ...(floor
      ? [
          {
            name: "floor",
            front: { kind: "http", port: floor.ready.port } as Front,
            pid: floor.child.pid ?? null,
            tunnelsOnly: true,
          },
        ]
      : []),
    ...(squid
      ? [{ name: "squid", front: { kind: "http", port: squid.port } as Front, pid: squid.child.pid ?? null }]
      : []),
  ];
  const measured = subjects.filter((subject) => only(subject.name));
  if (PIN) pinCores(site.pid, measured);
  try {
    console.log(
      `ByteToll short-connection benchmark — loopback, ${CLIENTS} clients × ${PER_CLIENT} connections per round, ` +
        `each: connect, ${"tunnel or request"}, one ${PAGE_BYTES / 1000} KB page, close; ${ROUNDS} alternating rounds, medians\n`,
    );
    const results = new Map<string, RoundResult[]>();
    const applies = (subject: Subject, workload: Workload) =>
      !(workload === "plain HTTP" && subject.tunnelsOnly) &&
      !(workload === "plain HTTP" && subject.front.kind === "socks");
    // A whole round each, not measured: a gateway's code is optimised by then (its first round
    // used to cost about twice the next ones).
    process.stdout.write("warming up…\n");
    for (const subject of measured)
      for (const workload of WORKLOADS) if (applies(subject, workload)) await round(subject, workload, site);
    for (let r = 1; r <= ROUNDS; r++) {
      process.stdout.write(`round ${r}/${ROUNDS}…\n`);
      // Each round starts with the next subject: a subject's place in the round must not favour
      // it (the same code measured as two subjects differed by a tenth or more when the order was
      // fixed).
      const order = measured.map((_, i) => measured[(i + r - 1) % measured.length] as Subject);
      for (const workload of WORKLOADS) {
        for (const subject of order) {
          if (!applies(subject, workload)) continue;
          const key = `${workload}\u0000${subject.name}`;
          results.set(key, [...(results.get(key) ?? []), await round(subject, workload, site)]);
        }
      }
    }
    const pick = (workload: Workload, subject: Subject, of: (r: RoundResult) => number | null) => {
      const rounds = results.get(`${workload}\u0000${subject.name}`);
      if (!rounds) return null;
      const values = rounds.map(of).filter((v): v is number => v !== null);
      return values.length === 0 ? null : median(values);
    };
    console.log(
      line(
        "",
        measured.map((s) => s.name),
      ),
    );
    for (const workload of WORKLOADS) {
      console.log(`\n${workload}`);
      const rows: Array<[string, (r: RoundResult) => number | null, number]> = [
        ["  connections/s", (r) => r.perSecond, 0],
        ["  latency p50 (ms)", (r) => r.p50, 1],
        ["  latency p99 (ms)", (r) => r.p99, 1],
        ["  proxy CPU per 1,000 (ms)", (r) => r.cpuMsPer1000, 0],
        ["    of it in the kernel (ms)", (r) => r.systemMsPer1000, 0],
        ["  clients + site CPU per 1,000", (r) => r.peersMsPer1000, 0],
      ];
      for (const [label, of, digits] of rows)
        console.log(
          line(
            label,
            measured.map((s) => pick(workload, s, of)),
            digits,
          ),
        );
    }
    /** "1.02× squid's CPU (rounds 0.81–1.30)": the rounds' median ratio and their spread. */
    const ratioText = (ratios: number[], what = "") =>
      `${median(ratios).toFixed(2)}×${what} (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
    /** Each round's proxy CPU of `subject` over `reference`'s in the same round. */
    const roundRatios = (workload: Workload, subject: Subject, reference: Subject) => {
      const of = (s: Subject) => results.get(`${workload}\u0000${s.name}`) ?? [];
      const theirs = of(reference);
      return of(subject).flatMap((r, i) => {
        const base = theirs[i]?.cpuMsPer1000;
        return r.cpuMsPer1000 === null || !base ? [] : [r.cpuMsPer1000 / base];
      });
    };
    const squidSubject = measured.find((s) => s.name === "squid");
    if (squidSubject) {
      console.log("\nAgainst squid (its plain port; the same workload):");
      for (const workload of WORKLOADS) {
        const base = pick(workload, squidSubject, (r) => r.perSecond);
        const baseP99 = pick(workload, squidSubject, (r) => r.p99);
        const baseCpu = pick(workload, squidSubject, (r) => r.cpuMsPer1000);
        const gateways = measured.filter((s) => s.name.startsWith("gateway") || s.name === "baseline");
        for (const subject of gateways) {
          const rate = pick(workload, subject, (r) => r.perSecond);
          const p99 = pick(workload, subject, (r) => r.p99);
          const cpu = pick(workload, subject, (r) => r.cpuMsPer1000);
          if (rate === null || base === null || p99 === null || baseP99 === null) continue;
          // CPU per connection is what compares on a box whose cores the clients share; each
          // round's ratio is taken against squid's in the same round (a noisy neighbour slows
          // both), and their median is printed with their spread.
          const ratios = roundRatios(workload, subject, squidSubject);
          const cpuRatio =
            cpu === null || !baseCpu || ratios.length === 0 ? "" : `${ratioText(ratios, " squid's CPU")}, `;
          console.log(
            `  ${workload.padEnd(24)} ${subject.name.padEnd(15)} ${cpuRatio}${(rate / base).toFixed(2)}× its rate, ` +
              `p99 ${(p99 / baseP99).toFixed(2)}× (${p99.toFixed(1)} ms vs ${baseP99.toFixed(1)} ms)`,
          );
        }
      }
    } else if (!squid) console.log(`squid skipped: ${SQUID} is not installed (apt-get install -y squid)`);
    const pairs = measured.flatMap((subject) => {
      const before = measured.find((s) => s.name === subject.name.replace(/^gateway/, "baseline"));
      return subject.name.startsWith("gateway") && before ? [[subject, before] as const] : [];
    });
    if (pairs.length > 0) {
      console.log("\nAgainst the baseline (BENCH_BASELINE), proxy CPU per connection, same round:");
      for (const workload of WORKLOADS)
        for (const [subject, before] of pairs) {
          const ratios = roundRatios(workload, subject, before);
          if (ratios.length === 0) continue;
          console.log(`  ${workload.padEnd(24)} ${subject.name.padEnd(15)} ${ratioText(ratios)}`);
        }
    }
    if (ruled)
      reportRuleCost(measured, (subject, workload) => pick(workload, subject, (r) => r.cpuMsPer1000));
    if (!tinyproxy)
      console.log(`tinyproxy skipped: ${TINYPROXY} is not installed (apt-get install -y tinyproxy)`);
  } finally {
    for (const child of [
      origin.child,
      gateway.child,
      javascript.child,
      ...(workers ? [workers.child] : []),
      ...(ruled ? [ruled.none.child, ruled.many.child] : []),
      ...(baseline ? [baseline.child] : []),
      ...(baselineWorkers ? [baselineWorkers.child] : []),
      ...(floor ? [floor.child] : []),
    ]) {
      child.removeAllListeners("exit");
      child.disconnect();
    }
    for (const peer of peers) {
      peer.child.kill("SIGTERM");
      rmSync(peer.dir, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
