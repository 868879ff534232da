import type { Database } from "@bytetoll/db";

/** The key of a recurring job's one row. */
export const RECURRING_KEY = "every";

/** A claimed row, as the runner hands it to a job's function. */
export interface ClaimedJob {
  id: string;
  name: string;
  key: string;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
  everyMs: number | null;
  claim: string;
}

interface ClaimedRow {
  id: string;
  name: string;
  key: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  every_ms: number | null;
  claim: string;
}

export interface JobCounts {
  name: string;
  every_ms: number | null;
  queued: number;
  running: number;
  dead: number;
  next_run_at: Date | null;
  runs: number;
  failures: number;
  last_started_at: Date | null;
  last_finished_at: Date | null;
  last_error: string | null;
}

const MS = "* interval '1 millisecond'";

/** What a finished run adds to its job's counts, in the statement that records the run. */
const countRun = (rows: string, failed: boolean) => `
  INSERT INTO job_stats (name, runs, failures, last_started_at, last_finished_at, last_error)
  SELECT name, 1, ${failed ? 1 : 0}, $3, now(), ${failed ? "$4" : "NULL"} FROM ${rows}
  ON CONFLICT (name) DO UPDATE SET runs = job_stats.runs + 1,
    failures = job_stats.failures + EXCLUDED.failures, last_started_at = EXCLUDED.last_started_at,
    last_finished_at = EXCLUDED.last_finished_at, last_error = EXCLUDED.last_error`;

/** The SQL of the job runner (decision 036); every write after a claim names the claim, so an
 * instance whose lease ran out (and whose job another instance took) changes nothing. */
export function createJobsRepository(database: Database) {
  return {
    /** The recurring job's row, due at once when new; a shorter interval than the row's brings
     * its next run forward. */
    async schedule(name: string, everyMs: number): Promise<void> {
      await database.query(
        `INSERT INTO jobs (name, key, every_ms) VALUES ($1, '${RECURRING_KEY}', $2)
         ON CONFLICT (name, key) WHERE status <> 'dead' DO UPDATE
           SET every_ms = EXCLUDED.every_ms,
               run_at = LEAST(jobs.run_at, now() + EXCLUDED.every_ms ${MS})`,
        [name, everyMs],
      );
    },

    /** Queues one piece of work; under a key already queued, nothing; under a key running, it
     * runs once more when done. Returns whether a run was added. */
    async enqueue(job: {
      name: string;
      key: string | null;
      payload: Record<string, unknown>;
      delayMs: number;
      maxAttempts: number;
    }): Promise<boolean> {
      const rows = await database.query(
        `INSERT INTO jobs (name, key, payload, run_at, max_attempts)
         VALUES ($1, COALESCE($2, gen_random_uuid()::text), $3::jsonb, now() + $4::int ${MS}, $5)
         ON CONFLICT (name, key) WHERE status <> 'dead' DO UPDATE SET rerun = true
           WHERE jobs.status = 'running' AND NOT jobs.rerun
         RETURNING id`,
        [job.name, job.key, JSON.stringify(job.payload), job.delayMs, job.maxAttempts],
      );
      return rows.length > 0;
    },

    /** Up to `limit` due rows of the named jobs (and the `now` ones even if not yet due), or
     * running ones whose lease has run out, taken under one claim for `leaseMs`. */
    async claim(
      claim: string,
      names: string[],
      now: string[],
      limit: number,
      leaseMs: number,
    ): Promise<ClaimedJob[]> {
      const rows = await database.query<ClaimedRow>(
        `UPDATE jobs SET status = 'running', claim = $1, locked_until = now() + $5::int ${MS},
                attempts = attempts + 1
          WHERE id IN (
            SELECT id FROM jobs
             WHERE name = ANY($2::text[])
               AND ((status = 'queued' AND (run_at <= now() OR name = ANY($3::text[])))
                 OR (status = 'running' AND locked_until < now()))
             ORDER BY run_at LIMIT $4 FOR UPDATE SKIP LOCKED)
         RETURNING id::text, name, key, payload, attempts, max_attempts, every_ms, claim::text`,
        [claim, names, now, limit, leaseMs],
      );
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        key: row.key,
        payload: row.payload,
        attempts: row.attempts,
        maxAttempts: row.max_attempts,
        everyMs: row.every_ms,
        claim: row.claim,
      }));
    },

    /** Keeps this instance's claims while their jobs run. */
    async renew(claims: string[], leaseMs: number): Promise<void> {
      await database.query(
        `UPDATE jobs SET locked_until = now() + $2::int ${MS}
          WHERE claim = ANY($1::uuid[]) AND status = 'running'`,
        [claims, leaseMs],
      );
    },

    /** A run that ended well: a queued job is done (its row goes), a recurring one is due again
     * after its interval, or at once when it was asked for while it ran. */
    async succeeded(job: ClaimedJob, startedAt: Date, again: boolean): Promise<void> {
      const done =
        job.everyMs === null
          ? `gone AS (DELETE FROM jobs WHERE id = $1 AND claim = $2 AND NOT rerun RETURNING name),
             again AS (
               UPDATE jobs SET status = 'queued', claim = NULL, locked_until = NULL, attempts = 0,
                      last_error = NULL, rerun = false, run_at = now()
                WHERE id = $1 AND claim = $2 AND rerun RETURNING name),
             done AS (SELECT name FROM gone UNION ALL SELECT name FROM again)`
          : `done AS (
               UPDATE jobs SET status = 'queued', claim = NULL, locked_until = NULL, attempts = 0,
                      last_error = NULL,
                      run_at = CASE WHEN $4::boolean THEN now() ELSE now() + every_ms ${MS} END
                WHERE id = $1 AND claim = $2 RETURNING name)`;
      await database.query(`WITH ${done} ${countRun("done", false)}`, [
        job.id,
        job.claim,
        startedAt,
        ...(job.everyMs === null ? [] : [again]),
      ]);
    },

    /** A run that failed: tried again `retryInMs` later (a recurring job at its next turn), or
     * dead-lettered when `dead`. */
    async failed(
      job: ClaimedJob,
      startedAt: Date,
      error: string,
      retryInMs: number,
      dead: boolean,
    ): Promise<void> {
      await database.query(
        `WITH failed AS (
           UPDATE jobs SET status = CASE WHEN $6::boolean THEN 'dead' ELSE 'queued' END,
                  claim = NULL, locked_until = NULL, last_error = $4,
                  run_at = now() + COALESCE(every_ms, $5::int) ${MS}
            WHERE id = $1 AND claim = $2 RETURNING name)
         ${countRun("failed", true)}`,
        [job.id, job.claim, startedAt, error, retryInMs, dead],
      );
    },

    /** Hands back claims at shutdown: due at once for the next instance, the run not counted. */
    async release(claims: string[]): Promise<void> {
      await database.query(
        `UPDATE jobs SET status = 'queued', claim = NULL, locked_until = NULL, run_at = now(),
                attempts = GREATEST(attempts - 1, 0)
          WHERE claim = ANY($1::uuid[]) AND status = 'running'`,
        [claims],
      );
    },

    /** Each job's rows by state, and its counts: every job that has rows or has run. */
    counts(): Promise<JobCounts[]> {
      return database.query<JobCounts>(`
        SELECT n.name, j.every_ms, COALESCE(j.queued, 0)::int AS queued,
               COALESCE(j.running, 0)::int AS running, COALESCE(j.dead, 0)::int AS dead,
               j.next_run_at, COALESCE(s.runs, 0)::float8 AS runs,
               COALESCE(s.failures, 0)::float8 AS failures,
               s.last_started_at, s.last_finished_at, s.last_error
          FROM (SELECT name FROM jobs UNION SELECT name FROM job_stats) n
          LEFT JOIN (
            SELECT name, max(every_ms) AS every_ms,
                   count(*) FILTER (WHERE status = 'queued' AND every_ms IS NULL) AS queued,
                   count(*) FILTER (WHERE status = 'running') AS running,
                   count(*) FILTER (WHERE status = 'dead') AS dead,
                   min(run_at) FILTER (WHERE status = 'queued') AS next_run_at
              FROM jobs GROUP BY name) j ON j.name = n.name
          LEFT JOIN job_stats s ON s.name = n.name
         ORDER BY n.name`);
    },
  };
}

export type JobsRepository = ReturnType<typeof createJobsRepository>;
