import { QueryClient } from "@tanstack/react-query";

/** docs/product.md#formats-and-limits: default cache lifetime 5 min; 3 retries, exponential backoff capped at 30 s. */
export const DEFAULT_GC_TIME_MS = 5 * 60 * 1000;
export const DEFAULT_RETRIES = 3;
export const MAX_RETRY_DELAY_MS = 30_000;

export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, MAX_RETRY_DELAY_MS);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { gcTime: DEFAULT_GC_TIME_MS, retry: DEFAULT_RETRIES, retryDelay },
      mutations: { retry: false },
    },
  });
}
