import type { UniqueCredentials, UniqueCredentialsResponse } from "@bytetoll/contracts";
import { queryOptions } from "@tanstack/react-query";
import { ApiError, apiRequest, SKIP_AUTH } from "../../../lib/api-client.ts";
import { retryDelay } from "../../../lib/query-client.ts";

export const UNIQUE_CREDENTIALS_QUERY_KEY = ["credentials", "unique"] as const;
export const UNIQUE_CREDENTIALS_FAILED = "Failed to fetch unique credentials";

/** GET /credentials/unique: a temporary set for an anonymous visitor (no token sent). */
export async function getUniqueCredentials(signal?: AbortSignal): Promise<UniqueCredentials> {
  try {
    const body = await apiRequest<UniqueCredentialsResponse>("/credentials/unique", {
      headers: SKIP_AUTH,
      signal,
    });
    return body.data;
  } catch (error) {
    // docs/product.md#validation: success false reads as this fixed message.
    if (error instanceof ApiError && error.fromServer)
      throw new ApiError(UNIQUE_CREDENTIALS_FAILED, error.status);
    throw error;
  }
}

export const uniqueCredentialsQueryOptions = () =>
  queryOptions({
    queryKey: UNIQUE_CREDENTIALS_QUERY_KEY,
    queryFn: ({ signal }) => getUniqueCredentials(signal),
    // docs/product.md#messages/§9: 3 retries, exponential backoff capped at 30 s; stale 5 min, kept 10 min.
    retry: 3,
    retryDelay,
    staleTime: 5 * 60_000,
    gcTime: 10 * 60_000,
  });
