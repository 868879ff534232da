import { type AdminJob, adminJobsResponse } from "@bytetoll/contracts";
import type { App } from "../../types.ts";
import type { JobCounts } from "../jobs/index.ts";
import { adminErrors } from "./schemas.ts";

const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

function jobView(row: JobCounts): AdminJob {
  return {
    name: row.name,
    every_ms: row.every_ms,
    queued: row.queued,
    running: row.running,
    dead: row.dead,
    runs: row.runs,
    failures: row.failures,
    last_started_at: iso(row.last_started_at),
    last_finished_at: iso(row.last_finished_at),
    last_error: row.last_error,
  };
}

/** GET /admin/jobs. Registered inside adminRoutes, behind its operator check. Jobs this instance
 * defines but that have never run are listed too. */
export async function adminJobsRoutes(app: App) {
  app.get(
    "/admin/jobs",
    {
      schema: {
        tags: ["admin"],
        summary: "Each background job: queued and running work, dead-lettered work, runs, failures, last run",
        security: [{ bearer: [] }],
        response: { 200: adminJobsResponse, ...adminErrors },
      },
    },
    async () => {
      const rows = (await app.jobs.counts()).map(jobView);
      const known = new Set(rows.map((row) => row.name));
      const unseen = app.jobs
        .defined()
        .filter(({ name }) => !known.has(name))
        .map(({ name, everyMs }) => jobView(emptyCounts(name, everyMs)));
      const data = [...rows, ...unseen].sort((a, b) => a.name.localeCompare(b.name));
      return { success: true as const, data };
    },
  );
}

const emptyCounts = (name: string, everyMs: number | null): JobCounts => ({
  name,
  every_ms: everyMs,
  queued: 0,
  running: 0,
  dead: 0,
  next_run_at: null,
  runs: 0,
  failures: 0,
  last_started_at: null,
  last_finished_at: null,
  last_error: null,
});
