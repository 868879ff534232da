import type { AdminJob } from "@bytetoll/contracts";
import { formatDateTime } from "../../../lib/format.ts";
import { useJobs } from "../api/get-jobs.ts";
import { AdminCard } from "./admin-card.tsx";
import { errorMessage, LoadingRows, StateMessage } from "./state-message.tsx";

export const NO_JOBS = "No background job has run yet.";

/** "every 5 s", "every 1 min", or "queued work". */
export function formatCadence(everyMs: number | null): string {
  if (everyMs === null) return "queued work";
  return everyMs < 60_000
    ? `every ${Number((everyMs / 1000).toFixed(1))} s`
    : `every ${Math.round(everyMs / 60_000)} min`;
}

function lastRun(job: AdminJob): string {
  if (!job.last_started_at) return "never run";
  return `last run ${formatDateTime(job.last_started_at)}`;
}

/** The Overview's background jobs: what waits, what failed, when each last ran. */
export function JobsCard() {
  const jobs = useJobs();
  return (
    <AdminCard title="Background jobs">
      {jobs.isPending ? (
        <LoadingRows rows={3} label="Loading jobs" />
      ) : !jobs.data ? (
        <StateMessage error onRetry={() => void jobs.refetch()}>
          {errorMessage(jobs.error)}
        </StateMessage>
      ) : jobs.data.length === 0 ? (
        <StateMessage>{NO_JOBS}</StateMessage>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm" aria-label="Background jobs">
          {jobs.data.map((job) => (
            <li key={job.name} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 px-4 py-2.5 sm:px-6">
              <span className="min-w-0 break-all font-medium text-slate-900">{job.name}</span>
              <span className="text-slate-500">
                {formatCadence(job.every_ms)} · {lastRun(job)}
              </span>
              <span className="flex gap-3 text-slate-900 tabular-nums sm:ml-auto">
                <span>Queued {job.queued + job.running}</span>
                <span className={job.failures > 0 ? "text-amber-700" : undefined}>
                  Failures {job.failures}
                </span>
                <span className={job.dead > 0 ? "font-semibold text-red-700" : undefined}>
                  Dead {job.dead}
                </span>
              </span>
              {job.last_error ? (
                <span className="w-full break-words text-xs text-red-700">Last error: {job.last_error}</span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </AdminCard>
  );
}
