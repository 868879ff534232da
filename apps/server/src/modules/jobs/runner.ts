import { randomUUID } from "node:crypto";
import type { Database } from "@bytetoll/db";
import type { FastifyBaseLogger } from "fastify";
import { type ClaimedJob, createJobsRepository } from "./repository.ts";

/** What a job's function is given: its row's key, payload and which attempt this is. */
export type JobRun = Pick<ClaimedJob, "name" | "key" | "payload" | "attempts">;
export type JobFunction = (run: JobRun) => Promise<void>;

export interface RunnerOptions {
  database: Database;
  log: FastifyBaseLogger;
  /** How long a claim holds without being renewed; renewed while the job runs. */
  leaseMs: number;
  /** How often due work is looked for when nothing asks sooner. */
  pollMs: number;
  /** Jobs run at once by this instance. */
  concurrency?: number;
  /** How long stop() waits for running jobs before handing their claims back. */
  stopWaitMs?: number;
}

export interface QueueOptions {
  /** A second job under a key already queued or running is not added. */
  key?: string;
  payload?: Record<string, unknown>;
  delayMs?: number;
  maxAttempts?: number;
}

interface Definition {
  fn: JobFunction;
  everyMs: number | null;
  /** A failed queued job waits this long, doubled per failure up to MAX_RETRY_MS. */
  retryBaseMs: number;
}

const MAX_RETRY_MS = 60 * 60_000;

/** Exponential back-off of a failed queued job: base, 2×base, 4×base… up to an hour. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

const claimsOf = (runs: Iterable<{ job: ClaimedJob }>) => [...new Set([...runs].map(({ job }) => job.claim))];

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000);

/**
 * The one runner of background work (decision 036), the same on every instance: recurring jobs
 * and queued work are rows; each poll claims what is due under a lease that is renewed while the
 * job runs. A job throwing is retried with back-off and dead-lettered after its attempts; a
 * recurring job simply runs at its next turn. `stop()` waits for running jobs, then hands back
 * the claims of any still running so another instance takes them at once.
 */
export function createJobRunner(options: RunnerOptions) {
  const repository = createJobsRepository(options.database);
  const concurrency = options.concurrency ?? 8;
  const definitions = new Map<string, Definition>();
  const unscheduled = new Set<string>();
  const running = new Map<string, { job: ClaimedJob; done: Promise<void> }>();
  const again = new Set<string>();
  const asked = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let polling: Promise<void> | null = null;
  let pollAgain = false;
  let stopped = true;
  let renewedAt = 0;

  function pollEveryMs(): number {
    let ms = options.pollMs;
    for (const definition of definitions.values()) ms = Math.min(ms, definition.everyMs ?? ms);
    return running.size > 0 ? Math.min(ms, options.leaseMs / 3) : ms;
  }

  function define(name: string, fn: JobFunction, every: number | null, retryBaseMs = 1_000): void {
    definitions.set(name, { fn, everyMs: every, retryBaseMs });
    if (every !== null) unscheduled.add(name);
    wake();
  }

  async function execute(job: ClaimedJob, definition: Definition): Promise<void> {
    const startedAt = new Date();
    if (job.everyMs === null && job.attempts > job.maxAttempts) {
      const lost = `its worker stopped before finishing, ${job.attempts - 1} times`;
      return repository.failed(job, startedAt, lost, 0, true);
    }
    try {
      await definition.fn({ name: job.name, key: job.key, payload: job.payload, attempts: job.attempts });
      await repository.succeeded(job, startedAt, again.delete(job.name));
    } catch (error) {
      again.delete(job.name);
      options.log.warn({ err: error, job: job.name, attempts: job.attempts }, "job failed");
      const dead = job.everyMs === null && job.attempts >= job.maxAttempts;
      const retryInMs = retryDelayMs(job.attempts, definition.retryBaseMs);
      await repository.failed(job, startedAt, errorText(error), retryInMs, dead);
    }
  }

  function launch(job: ClaimedJob): void {
    const definition = definitions.get(job.name);
    if (!definition) return;
    const done = execute(job, definition)
      .catch((error: unknown) => options.log.warn({ err: error, job: job.name }, "job not recorded"))
      .finally(() => {
        running.delete(job.id);
        if (again.has(job.name) || asked.size > 0) wake();
      });
    running.set(job.id, { job, done });
  }

  async function poll(): Promise<void> {
    for (const name of [...unscheduled]) {
      const everyMs = definitions.get(name)?.everyMs;
      if (everyMs) await repository.schedule(name, everyMs);
      unscheduled.delete(name);
    }
    if (running.size > 0 && Date.now() - renewedAt >= options.leaseMs / 3) {
      renewedAt = Date.now();
      await repository.renew(claimsOf(running.values()), options.leaseMs);
    }
    const room = concurrency - running.size;
    if (room <= 0 || stopped) return;
    const now = [...asked];
    asked.clear();
    const claimed = await repository.claim(randomUUID(), [...definitions.keys()], now, room, options.leaseMs);
    for (const job of claimed) launch(job);
  }

  function schedulePoll(): void {
    if (timer) clearTimeout(timer);
    timer = stopped ? null : setTimeout(wake, pollEveryMs());
    timer?.unref();
  }

  /** Polls now (or right after the poll under way). */
  function wake(): void {
    if (stopped) return;
    if (polling) {
      pollAgain = true;
      return;
    }
    pollAgain = false;
    polling = poll()
      .catch((error: unknown) => options.log.warn({ err: error }, "job poll failed; the next one retries"))
      .finally(() => {
        polling = null;
        if (pollAgain) wake();
        else schedulePoll();
      });
  }

  return {
    /** A job run every `everyMs` by one instance at a time, whichever claims its turn. */
    every(name: string, everyMs: number, fn: JobFunction): void {
      if (!(everyMs > 0 && everyMs <= MAX_RETRY_MS)) throw new Error(`${name}: every ${everyMs} ms`);
      define(name, fn, everyMs);
    },
    /** Work queued with enqueue() under `name` is run by `fn`. */
    handle(name: string, fn: JobFunction, retryBaseMs?: number): void {
      define(name, fn, null, retryBaseMs);
    },
    /** Queues one piece of work for whichever instance handles `name`. */
    async enqueue(name: string, queue: QueueOptions = {}): Promise<boolean> {
      const added = await repository.enqueue({
        name,
        key: queue.key ?? null,
        payload: queue.payload ?? {},
        delayMs: queue.delayMs ?? 0,
        maxAttempts: queue.maxAttempts ?? 5,
      });
      if (added && !queue.delayMs && definitions.has(name)) wake();
      return added;
    },
    /** Runs a recurring job as soon as possible: now when no instance is running it, right
     * after this instance's run when it is running here. */
    runSoon(name: string): void {
      if ([...running.values()].some(({ job }) => job.name === name)) again.add(name);
      else asked.add(name);
      wake();
    },
    start(): void {
      if (!stopped) return;
      stopped = false;
      wake();
    },
    /** Stops claiming; waits up to stopWaitMs for running jobs, then hands back what still runs. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await polling;
      let timeout: NodeJS.Timeout | undefined;
      const waited = new Promise((resolve) => {
        timeout = setTimeout(resolve, options.stopWaitMs ?? 3_000);
      });
      await Promise.race([Promise.all([...running.values()].map((run) => run.done)), waited]);
      clearTimeout(timeout);
      if (running.size > 0) await repository.release(claimsOf(running.values()));
    },
    counts: () => repository.counts(),
    /** The jobs this instance runs, and the interval of the recurring ones. */
    defined: () => [...definitions].map(([name, definition]) => ({ name, everyMs: definition.everyMs })),
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
