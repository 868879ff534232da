import { useCallback } from "react";
import { useSearchParams } from "react-router";

export const DEFAULT_PER_PAGE = 25;

/** A page number kept in the URL under `name` (default "page"), and the link to another page of it. */
export function usePageParam(name = "page") {
  const [params] = useSearchParams();
  const page = positive(params.get(name), 1);
  const pageHref = useCallback(
    (target: number) => {
      const next = new URLSearchParams(params);
      if (target <= 1) next.delete(name);
      else next.set(name, String(target));
      const search = next.toString();
      return search ? `?${search}` : "?";
    },
    [params, name],
  );
  return { page, pageHref };
}

/**
 * A server-paginated list's page, per_page and filters, kept in the URL so back/forward and a
 * shared link show the same rows. Changing a filter goes back to page 1.
 */
export function useListParams<F extends string>(filterNames: readonly F[]) {
  const [params, setParams] = useSearchParams();
  const { page, pageHref } = usePageParam();
  const perPage = positive(params.get("per_page"), DEFAULT_PER_PAGE);
  const filters = Object.fromEntries(filterNames.map((name) => [name, params.get(name) ?? ""])) as Record<
    F,
    string
  >;

  const setFilters = useCallback(
    (changes: Partial<Record<F, string>>) =>
      setParams((previous) => {
        const next = new URLSearchParams(previous);
        for (const [name, value] of Object.entries(changes) as Array<[string, string | undefined]>) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        next.delete("page");
        return next;
      }),
    [setParams],
  );

  return { page, perPage, filters, setFilters, pageHref };
}

function positive(value: string | null, fallback: number): number {
  const number = Number(value);
  return Number.isInteger(number) && number >= 1 ? number : fallback;
}
