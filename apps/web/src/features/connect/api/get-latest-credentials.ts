import type { Credentials, CredentialsResponse } from "@bytetoll/contracts";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

/** Under ["credentials"], which logout's cleanup removes. */
export const LATEST_CREDENTIALS_QUERY_KEY = ["credentials", "latest"] as const;

/** GET /credentials/latest: the signed-in customer's proxy credentials. */
export async function getLatestCredentials(signal?: AbortSignal): Promise<Credentials> {
  const body = await apiRequest<CredentialsResponse>("/credentials/latest", { signal });
  return body.data;
}

export const latestCredentialsQueryOptions = () =>
  queryOptions({
    queryKey: LATEST_CREDENTIALS_QUERY_KEY,
    queryFn: ({ signal }) => getLatestCredentials(signal),
    // docs/product.md#formats-and-limits: latest credentials cached 5 min.
    staleTime: 5 * 60_000,
  });
