import { createThrowawayPostgres, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SpawnedScript, spawnScript } from "../../helpers/server-process.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

const postgres = process.env.DATABASE_URL;

let database: TestDatabase;
let crashed: SpawnedScript | undefined;
let survivor: TestApp | undefined;

const runs = () =>
  database.query<{ phase: string; attempt: number }>("SELECT phase, attempt FROM held_job_runs ORDER BY id");

beforeAll(async () => {
  if (!postgres) return;
  database = await createThrowawayPostgres(postgres, "bytetoll_jobs_crash", 4);
  await database.query(
    "CREATE TABLE held_job_runs (id serial PRIMARY KEY, phase text NOT NULL, attempt int NOT NULL)",
  );
}, 60_000);
afterAll(async () => {
  if (crashed?.child.exitCode === null) crashed.child.kill("SIGKILL");
  await crashed?.exited;
  await survivor?.close();
  await database?.close();
});

describe("a job whose server is killed in the middle of it", () => {
  it.skipIf(!postgres)(
    "runs to its end once, on another instance, after the dead server's claim expires",
    async () => {
      const server = spawnScript("apps/server/test/modules/jobs/support/server-with-held-job.ts", {
        DATABASE_URL: database.url ?? "",
      });
      crashed = server;
      await expect.poll(server.output, { timeout: 60_000 }).toContain("listening");
      // Queued by another instance that does not handle it: the server process claims it.
      survivor = await createTestApp({ JOBS_LEASE_MS: "1000" }, { database });
      await survivor.app.jobs.enqueue("held");
      await expect.poll(runs, { timeout: 30_000 }).toEqual([{ phase: "started", attempt: 1 }]);

      server.child.kill("SIGKILL");
      await server.exited;
      const [held] = await database.query<{ status: string; claim: string | null }>(
        "SELECT status, claim FROM jobs WHERE name = 'held'",
      );
      expect(held).toMatchObject({ status: "running", claim: expect.any(String) });

      survivor.app.jobs.handle("held", async ({ attempts }) => {
        await database.query("INSERT INTO held_job_runs (phase, attempt) VALUES ('finished', $1)", [
          attempts,
        ]);
      });
      await expect
        .poll(() => database.query("SELECT 1 FROM jobs WHERE name = 'held'"), { timeout: 30_000 })
        .toEqual([]);
      expect(await runs()).toEqual([
        { phase: "started", attempt: 1 },
        { phase: "finished", attempt: 2 },
      ]);
      const stats = await database.query(
        "SELECT runs::int, failures::int FROM job_stats WHERE name = 'held'",
      );
      expect(stats).toEqual([{ runs: 1, failures: 0 }]);
    },
    120_000,
  );
});
