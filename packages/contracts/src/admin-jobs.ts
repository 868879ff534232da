import { z } from "zod";

/** GET /admin/jobs — the background jobs every instance runs, and the work queued for them. */
export const adminJob = z.object({
  name: z.string(),
  /** A recurring job's interval; null for queued work. */
  every_ms: z.number().nullable(),
  /** Work waiting to run (a recurring job's own turn is not counted). */
  queued: z.number(),
  running: z.number(),
  /** Queued work that failed all its attempts and is no longer tried. */
  dead: z.number(),
  runs: z.number(),
  failures: z.number(),
  /** ISO times of the last run's start and end, and its error when it failed. */
  last_started_at: z.string().nullable(),
  last_finished_at: z.string().nullable(),
  last_error: z.string().nullable(),
});
export type AdminJob = z.infer<typeof adminJob>;
export const adminJobsResponse = z.object({ success: z.literal(true), data: z.array(adminJob) });
