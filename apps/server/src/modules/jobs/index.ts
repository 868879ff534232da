export { default as jobsPlugin } from "./plugin.ts";
export type { JobCounts } from "./repository.ts";
export { createJobRunner, type JobFunction, type JobRunner, retryDelayMs } from "./runner.ts";
