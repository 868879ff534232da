import cluster, { type Worker } from "node:cluster";
import { readdirSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import type { Logger } from "pino";
import { AggregatorRegistry, type Registry } from "prom-client";
import type { SharedListeningSockets } from "./front/native-listen.ts";

/**
 * GATEWAY_WORKERS=N: N gateway processes serve the same ports (node:cluster; the kernel hands each
 * new connection to whichever worker accepts it first, so the primary carries no traffic). Each
 * worker is a gateway instance of its own, as separate machines are: its own leases, its own
 * usage journal under DATA_DIR/gateway-workers/<index>, its own heartbeat. The primary only
 * starts them, restarts one that dies (its journal is committed by its successor, which has the
 * same index), and serves /metrics summed over the workers. See decision 028.
 */

/** Messages between the primary and its workers, and between the primary and a parent process
 * that started it with an IPC channel (tests, benches). */
export type ControlMessage =
  | {
      type: "ready";
      httpPort: number;
      httpsPort: number;
      socksPort: number | null;
      metricsPort?: number | null;
      /** The ports the worker's splice addon accepts on (the native front door). */
      nativePorts?: string[];
    }
  | { type: "flush"; id: number }
  /** `metered`: the bytes each process metered since it started (a worker's own; from the
   * primary, one entry per worker by index), so a parent sees which worker carried traffic. */
  | { type: "flushed"; id: number; ok: boolean; metered: number[] };

/** Where worker `index` keeps its journal and instance id. */
export function workerStateDir(dataDir: string, index: number): string {
  return join(dataDir, "gateway-workers", String(index));
}

function workerIndexes(dataDir: string): number[] {
  try {
    return readdirSync(join(dataDir, "gateway-workers"))
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * The state directories whose journals an instance takes over at start, so that no metered byte
 * is lost when the number of workers changes: worker `index` of `workers` takes those of workers
 * that no longer exist (index ≥ workers, spread over the live ones), worker 0 also the single
 * process's; a single process (index null) takes every worker's.
 */
export function orphanedStateDirs(dataDir: string, index: number | null, workers: number): string[] {
  const existing = workerIndexes(dataDir);
  if (index === null) return existing.map((i) => workerStateDir(dataDir, i));
  const orphans = existing.filter((i) => i >= workers && i % workers === index);
  return [...(index === 0 ? [dataDir] : []), ...orphans.map((i) => workerStateDir(dataDir, i))];
}

interface FlushAnswer {
  ok: boolean;
  /** Bytes metered since its start, per worker index (0 for one that did not answer). */
  metered: number[];
}

/** A worker that dies within this long of its start is restarted after a doubling pause (up to
 * MAX_RESTART_DELAY_MS), so a worker that cannot start does not spin; otherwise at once. */
const QUICK_DEATH_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;
const STOP_GRACE_MS = 30_000;

export interface PrimaryOptions {
  workers: number;
  /** The listening sockets every worker inherits (native-listen.ts). */
  shared: SharedListeningSockets;
  host: string;
  metricsPort: number | null;
  logger: Logger;
}

/** The primary process: forks the workers and keeps them running until SIGTERM or SIGINT. */
export function runPrimary(options: PrimaryOptions): void {
  new Primary(options).start();
}

class Primary {
  private readonly running = new Map<number, { worker: Worker; startedAt: number; delay: number }>();
  private readonly ready = new Map<number, Extract<ControlMessage, { type: "ready" }>>();
  private announced = false;
  private stopping = false;
  private metrics: http.Server | null = null;
  private nextFlushId = 1;
  /** Flushes asked for, with the workers that have not answered yet. */
  private readonly flushes = new Map<
    number,
    { pending: Set<number>; ok: boolean; metered: number[]; done: (answer: FlushAnswer) => void }
  >();

  constructor(private readonly options: PrimaryOptions) {}

  start(): void {
    // Workers accept on the shared socket themselves unless the operator chose round-robin
    // (NODE_CLUSTER_SCHED_POLICY=rr): handing every connection over from the primary costs a
    // short tunnel more than it saves.
    if (!process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
    for (let index = 0; index < this.options.workers; index++) this.fork(index, 0);
    process.on("SIGTERM", () => void this.stop("SIGTERM"));
    process.on("SIGINT", () => void this.stop("SIGINT"));
    // Started by a parent with an IPC channel: it asks for flushes, and its going away stops us.
    process.on("message", (message: ControlMessage) => {
      if (message.type === "flush")
        void this.flushAll().then(({ ok, metered }) =>
          process.send?.({ type: "flushed", id: message.id, ok, metered } satisfies ControlMessage),
        );
    });
    process.on("disconnect", () => void this.stop("disconnect"));
  }

  private fork(index: number, delay: number): void {
    const worker = cluster.fork({ ...this.options.shared.workerEnv, GATEWAY_WORKER_INDEX: String(index) });
    this.running.set(index, { worker, startedAt: Date.now(), delay });
    worker.on("message", (message: ControlMessage) => this.fromWorker(index, message));
    worker.on("exit", (code, signal) => this.exited(index, worker, code, signal));
  }

  private fromWorker(index: number, message: ControlMessage): void {
    if (message.type === "ready") {
      this.ready.set(index, message);
      if (!this.announced && this.ready.size === this.options.workers) void this.announce(message);
    }
    if (message.type === "flushed") this.answered(message.id, index, message.ok, message.metered[0] ?? 0);
  }

  private answered(id: number, index: number, ok: boolean, metered: number): void {
    const flush = this.flushes.get(id);
    if (!flush?.pending.delete(index)) return;
    flush.ok &&= ok;
    flush.metered[index] = metered;
    if (flush.pending.size > 0) return;
    this.flushes.delete(id);
    flush.done({ ok: flush.ok, metered: flush.metered });
  }

  private exited(index: number, worker: Worker, code: number | null, signal: string | null): void {
    const entry = this.running.get(index);
    if (entry?.worker !== worker) return;
    this.running.delete(index);
    this.ready.delete(index);
    // A worker that died before it answered a flush has not committed: its journal has the usage.
    for (const id of [...this.flushes.keys()]) this.answered(id, index, false, 0);
    if (this.stopping) return;
    const quick = Date.now() - entry.startedAt < QUICK_DEATH_MS;
    const delay = quick ? Math.min(MAX_RESTART_DELAY_MS, Math.max(1_000, entry.delay * 2)) : 0;
    this.options.logger.error({ worker: index, code, signal, restartInMs: delay }, "gateway worker died");
    setTimeout(() => {
      if (!this.stopping) this.fork(index, delay);
    }, delay);
  }

  /** Every worker listens: the metrics listener opens and the start is logged (and told). */
  private async announce(ports: Extract<ControlMessage, { type: "ready" }>): Promise<void> {
    this.announced = true;
    const { metricsPort, host, logger, workers } = this.options;
    if (metricsPort !== null) this.metrics = await serveClusterMetrics(metricsPort, host);
    const address = this.metrics?.address();
    const listening = { ...ports, metricsPort: address && typeof address === "object" ? address.port : null };
    logger.info({ ...listening, workers }, "gateway listening");
    process.send?.(listening);
  }

  /** Each worker commits what it metered; ok when all did. */
  private flushAll(): Promise<FlushAnswer> {
    // Only workers that listen can answer; one still starting has nothing metered yet.
    const indexes = [...this.ready.keys()].filter((index) => this.running.has(index));
    const metered = Array.from({ length: this.options.workers }, () => 0);
    if (indexes.length === 0) return Promise.resolve({ ok: true, metered });
    const id = this.nextFlushId++;
    return new Promise((done) => {
      this.flushes.set(id, { pending: new Set(indexes), ok: true, metered, done });
      for (const index of indexes)
        this.running.get(index)?.worker.send({ type: "flush", id } satisfies ControlMessage);
    });
  }

  private async stop(signal: string): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.options.logger.info({ signal }, "stopping gateway workers");
    // The shared listening sockets close with the last worker's copy: no connection is left
    // waiting in a queue nobody accepts from.
    this.options.shared.close();
    const exits = [...this.running.values()].map(
      ({ worker }) =>
        new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once("exit", () => resolve()))),
    );
    for (const { worker } of this.running.values()) worker.process.kill("SIGTERM");
    await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS))]);
    this.metrics?.close();
    process.exit(0);
  }
}

/** GET /metrics: every worker's figures, counters and gauges summed (the flush lag: the
 * largest), asked of the workers over the cluster's channel at each scrape. */
function serveClusterMetrics(port: number, host: string): Promise<http.Server> {
  const aggregator = new AggregatorRegistry();
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" || req.url !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
      return;
    }
    aggregator.clusterMetrics().then(
      (text) => res.writeHead(200, { "Content-Type": aggregator.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** To whoever started this process with an IPC channel — the primary, for a worker; a test or a
 * bench, for a gateway alone: that it listens (its ports), and a flush when asked. A worker's
 * registry is also what it answers the primary's scrape with. */
export function answerParent(
  gateway: {
    httpPort: number;
    httpsPort: number;
    socksPort: number | null;
    metricsPort: number | null;
    nativePorts: string[];
    /** Bytes metered since start. */
    readonly meteredBytes: number;
    flush(): Promise<boolean>;
  },
  workerRegistry: Registry | null,
): void {
  if (!process.send) return;
  if (workerRegistry) {
    AggregatorRegistry.setRegistries([workerRegistry]);
    // Constructing one installs prom-client's answer to the primary's scrape in this worker.
    new AggregatorRegistry();
  }
  process.on("message", (message: ControlMessage) => {
    if (message.type !== "flush") return;
    const answer = (ok: boolean) =>
      process.send?.({
        type: "flushed",
        id: message.id,
        ok,
        metered: [gateway.meteredBytes],
      } satisfies ControlMessage);
    gateway.flush().then(answer, () => answer(false));
  });
  const { httpPort, httpsPort, socksPort, metricsPort, nativePorts } = gateway;
  process.send({
    type: "ready",
    httpPort,
    httpsPort,
    socksPort,
    metricsPort,
    nativePorts,
  } satisfies ControlMessage);
}
