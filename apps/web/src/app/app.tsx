import { createBrowserRouter, RouterProvider } from "react-router";
import { createQueryClient } from "../lib/query-client.ts";
import { AppProviders } from "./providers.tsx";
import { routes } from "./routes.tsx";

const queryClient = createQueryClient();
const router = createBrowserRouter(routes);

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
