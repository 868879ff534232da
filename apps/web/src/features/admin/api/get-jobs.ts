import type { AdminJob } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

/** Jobs run every few seconds; an open Overview follows them at this pace. */
export const JOBS_REFRESH_MS = 10_000;

/** GET /admin/jobs: each background job's queue, runs, failures and dead-lettered work. */
export async function getJobs(signal?: AbortSignal): Promise<AdminJob[]> {
  const body = await apiRequest<ApiSuccess<AdminJob[]>>("/admin/jobs", { signal });
  return body.data;
}

export const jobsQueryOptions = () =>
  queryOptions({
    queryKey: adminQueryKey("jobs"),
    queryFn: ({ signal }) => getJobs(signal),
    refetchInterval: JOBS_REFRESH_MS,
  });

export function useJobs() {
  return useQuery(jobsQueryOptions());
}
