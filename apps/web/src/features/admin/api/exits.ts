import type {
  CreateUpstreamBody,
  MarginGroup,
  MarginsResponse,
  UpdateUpstreamBody,
  Upstream,
  UpstreamTest,
} from "@bytetoll/contracts";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

export const EXITS_QUERY_KEY = adminQueryKey("upstreams");
/** The gateways report every few seconds; an open page follows them at that pace. */
export const EXITS_REFRESH_MS = 5_000;

/** GET /admin/upstreams: the environment's exits (read-only) and the console's. */
export const exitsQueryOptions = () =>
  queryOptions({
    queryKey: EXITS_QUERY_KEY,
    queryFn: async ({ signal }) =>
      (await apiRequest<ApiSuccess<Upstream[]>>("/admin/upstreams", { signal })).data,
    refetchInterval: EXITS_REFRESH_MS,
  });

export const useExits = () => useQuery(exitsQueryOptions());

const exitPath = (id: string) => `/admin/upstreams/${encodeURIComponent(id)}`;

function useExitMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: EXITS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: adminQueryKey("audit") }),
      ]);
    },
  });
}

export const useCreateExit = () =>
  useExitMutation((body: CreateUpstreamBody) =>
    apiRequest<ApiSuccess<Upstream>>("/admin/upstreams", { method: "POST", json: body }),
  );
export const useUpdateExit = () =>
  useExitMutation((input: { id: string; body: UpdateUpstreamBody }) =>
    apiRequest<ApiSuccess<Upstream>>(exitPath(input.id), { method: "PATCH", json: input.body }),
  );
export const useDeleteExit = () =>
  useExitMutation((id: string) => apiRequest<{ success: true }>(exitPath(id), { method: "DELETE" }));

/** POST /admin/upstreams/{id}/test: an echo service fetched through the exit alone. */
export const useTestExit = () =>
  useMutation({
    mutationFn: async (id: string) =>
      (await apiRequest<ApiSuccess<UpstreamTest>>(`${exitPath(id)}/test`, { method: "POST", json: {} })).data,
  });

export type Margins = MarginsResponse["data"];

/** GET /admin/margins for the UTC days from..to, grouped. */
export const useMargins = (from: string, to: string, groupBy: MarginGroup) =>
  useQuery({
    queryKey: adminQueryKey("margins", from, to, groupBy),
    queryFn: async ({ signal }) =>
      (
        await apiRequest<MarginsResponse>(
          `/admin/margins?${new URLSearchParams({ from, to, group_by: groupBy })}`,
          { signal },
        )
      ).data,
  });
