import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createJobRunner, type JobRunner } from "../../../src/modules/jobs/index.ts";

let database: TestDatabase;
const runners: JobRunner[] = [];

function runner(options: { leaseMs?: number; stopWaitMs?: number } = {}): JobRunner {
  const made = createJobRunner({
    database,
    log: pino({ level: "silent" }),
    leaseMs: options.leaseMs ?? 5_000,
    pollMs: 20,
    stopWaitMs: options.stopWaitMs ?? 5_000,
  });
  runners.push(made);
  return made;
}

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const rowsOf = (name: string) =>
  database.query<{ status: string; attempts: number; claim: string | null; last_error: string | null }>(
    "SELECT status, attempts, claim, last_error FROM jobs WHERE name = $1",
    [name],
  );
const statsOf = async (name: string) =>
  (
    await database.query<{ runs: number; failures: number }>(
      "SELECT runs::int, failures::int FROM job_stats WHERE name = $1",
      [name],
    )
  )[0];

beforeAll(async () => {
  database = await createTestDatabase();
}, 120_000);
afterEach(async () => {
  await Promise.all(runners.splice(0).map((made) => made.stop()));
});
afterAll(async () => {
  await database?.close();
});

describe("the job runner", () => {
  it("retries a job that throws with growing waits, then keeps it as dead", async () => {
    const tries: number[] = [];
    const jobs = runner();
    jobs.handle(
      "flaky",
      async () => {
        tries.push(Date.now());
        throw new Error(`refused, try ${tries.length}`);
      },
      100,
    );
    jobs.start();
    expect(await jobs.enqueue("flaky", { maxAttempts: 3 })).toBe(true);

    await vi.waitFor(async () => expect((await rowsOf("flaky"))[0]?.status).toBe("dead"), 10_000);
    const [row] = await rowsOf("flaky");
    expect(row).toMatchObject({ attempts: 3, claim: null, last_error: "refused, try 3" });
    expect(tries).toHaveLength(3);
    // 100 ms after the first failure, 200 ms after the second.
    expect((tries[1] as number) - (tries[0] as number)).toBeGreaterThanOrEqual(100);
    expect((tries[2] as number) - (tries[1] as number)).toBeGreaterThanOrEqual(200);
    expect(await statsOf("flaky")).toEqual({ runs: 3, failures: 3 });
    // Dead, it is not run again, and does not stop the same key being queued anew.
    expect(await jobs.enqueue("flaky", { key: "again" })).toBe(true);
    await vi.waitFor(async () => expect(await rowsOf("flaky")).toHaveLength(2));
  });

  it("runs a queued key once however often it is queued, and once more when queued while running", async () => {
    const jobs = runner();
    const running = gate();
    const release = gate();
    const runs: string[] = [];
    jobs.handle("per-owner", async ({ key }) => {
      runs.push(key);
      running.open();
      if (runs.length === 1) await release.opened;
    });
    await Promise.all([1, 2, 3].map(() => jobs.enqueue("per-owner", { key: "owner-1" })));
    jobs.start();
    await running.opened;
    expect(await jobs.enqueue("per-owner", { key: "owner-1" })).toBe(true);
    expect(await jobs.enqueue("per-owner", { key: "owner-1" })).toBe(false);
    release.open();
    await vi.waitFor(async () => expect(await rowsOf("per-owner")).toHaveLength(0));
    expect(runs).toEqual(["owner-1", "owner-1"]);
  });

  it("never runs the same turn of a recurring job on two instances", async () => {
    let active = 0;
    let overlapped = 0;
    const ranOn: string[] = [];
    const turn = (instance: string) => async () => {
      active += 1;
      if (active > 1) overlapped += 1;
      ranOn.push(instance);
      await database.query("SELECT pg_sleep(0.01)");
      active -= 1;
    };
    const one = runner();
    const two = runner();
    one.every("sweep", 30, turn("one"));
    two.every("sweep", 30, turn("two"));
    one.start();
    two.start();
    await vi.waitFor(() => expect(ranOn.length).toBeGreaterThanOrEqual(20), 20_000);
    await Promise.all([one.stop(), two.stop()]);
    expect(overlapped).toBe(0);
    expect((await statsOf("sweep"))?.runs).toBe(ranOn.length);
    expect(await rowsOf("sweep")).toEqual([expect.objectContaining({ status: "queued", claim: null })]);
  });

  it("waits at shutdown for a running job to finish", async () => {
    const jobs = runner();
    const running = gate();
    const release = gate();
    let finished = false;
    jobs.handle("slow", async () => {
      running.open();
      await release.opened;
      await database.query("SELECT 1");
      finished = true;
    });
    jobs.start();
    await jobs.enqueue("slow");
    await running.opened;
    const stopped = jobs.stop().then(() => finished);
    release.open();
    expect(await stopped).toBe(true);
    expect(await rowsOf("slow")).toHaveLength(0);
    expect(await statsOf("slow")).toEqual({ runs: 1, failures: 0 });
  });

  it("hands back at shutdown the claim of a job that outlasts the wait, for another instance to run", async () => {
    const stuck = runner({ stopWaitMs: 50 });
    const running = gate();
    stuck.handle("hung", async () => {
      running.open();
      await new Promise(() => {});
    });
    stuck.start();
    await stuck.enqueue("hung");
    await running.opened;
    await stuck.stop();
    expect(await rowsOf("hung")).toEqual([
      expect.objectContaining({ status: "queued", attempts: 0, claim: null }),
    ]);

    const next = runner();
    const ran = gate();
    next.handle("hung", async () => ran.open());
    next.start();
    await ran.opened;
    await vi.waitFor(async () => expect(await rowsOf("hung")).toHaveLength(0));
  });
});
