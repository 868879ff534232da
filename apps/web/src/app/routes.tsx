import type { RouteObject } from "react-router";
import { RouteError } from "./route-error.tsx";

/**
 * docs/product.md#routes-and-layout. Every screen is its own lazily loaded chunk, so /login downloads no
 * dashboard, chart or payment code.
 */
export const routes: RouteObject[] = [
  {
    ErrorBoundary: RouteError,
    // Shown while the first screen's chunk loads; the screens draw their own skeletons after that.
    HydrateFallback: () => null,
    children: [
      { path: "/login", lazy: () => import("./routes/login.tsx") },
      { path: "/magic/auth", lazy: () => import("./routes/magic-link-callback.tsx") },
      { path: "/magic/auth/order/:orderId", lazy: () => import("./routes/magic-link-callback.tsx") },
      { path: "/checkout", lazy: () => import("./routes/checkout.tsx") },
      { path: "/orders/:orderId/receipt", lazy: () => import("./routes/receipt.tsx") },
      {
        lazy: () => import("./routes/app-layout.tsx"),
        children: [
          { index: true, lazy: () => import("./routes/dashboard.tsx") },
          { path: "/connect", lazy: () => import("./routes/connect.tsx") },
          { path: "/smart-routings", lazy: () => import("./routes/smart-routings.tsx") },
          { path: "/usage", lazy: () => import("./routes/usage.tsx") },
          { path: "/subusers", lazy: () => import("./routes/subusers.tsx") },
          { path: "/webhooks", lazy: () => import("./routes/webhooks.tsx") },
          { path: "/team", lazy: () => import("./routes/team.tsx") },
        ],
      },
      // One entry for the whole console, so the entry chunk carries one lazy route, not one per page.
      { path: "/admin/*", lazy: () => import("./routes/admin-layout.tsx") },
      { path: "*", lazy: () => import("./routes/not-found.tsx") },
    ],
  },
];
