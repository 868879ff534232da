import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AppProviders } from "../app/providers.tsx";
import { routes } from "../app/routes.tsx";

/** Renders the real route table at `path`, as the browser would, with a fresh cache. */
export function renderRoute(path: string, options: { state?: unknown } = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Number.POSITIVE_INFINITY } },
  });
  const router = createMemoryRouter(routes, {
    initialEntries: [{ pathname: path.split("?")[0], search: searchOf(path), state: options.state }],
  });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

function searchOf(path: string): string {
  const index = path.indexOf("?");
  return index === -1 ? "" : path.slice(index);
}
