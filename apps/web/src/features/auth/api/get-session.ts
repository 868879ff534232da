import type { SessionResponse, SessionUser } from "@bytetoll/contracts";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

/** Prefix of every cached session; logout removes them all. */
export const SESSION_QUERY_KEY = ["auth", "session"] as const;

/** GET /auth/session: docs/product.md#session of the bearer token. */
export async function getSession(signal?: AbortSignal): Promise<SessionUser> {
  const body = await apiRequest<SessionResponse>("/auth/session", { signal });
  return body.data;
}

/** Keyed by the token so a new sign-in never reads the previous user's cached session. */
export const sessionQueryOptions = (token: string) =>
  queryOptions({
    queryKey: [...SESSION_QUERY_KEY, token],
    queryFn: ({ signal }) => getSession(signal),
    staleTime: 5 * 60 * 1000,
    // docs/product.md#states: a failed session call signs the visitor out; retrying would only delay that.
    retry: false,
  });
