import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { StrictMode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AppProviders } from "../app/providers.tsx";
import { routes } from "../app/routes.tsx";

/** Renders the real route table at `path`, as the browser would, with a fresh cache; `strictMode`
 * wraps it in React's StrictMode (effects run twice, as in development). */
export function renderRoute(path: string, options: { state?: unknown; strictMode?: boolean } = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Number.POSITIVE_INFINITY } },
  });
  const router = createMemoryRouter(routes, {
    initialEntries: [{ pathname: path.split("?")[0], search: searchOf(path), state: options.state }],
  });
  const app = (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
  const view = render(options.strictMode ? <StrictMode>{app}</StrictMode> : app);
  return { ...view, router, queryClient };
}

function searchOf(path: string): string {
  const index = path.indexOf("?");
  return index === -1 ? "" : path.slice(index);
}
