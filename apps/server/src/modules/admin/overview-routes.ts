import { overviewQuery, overviewResponse } from "@bytetoll/contracts";
import type { App } from "../../types.ts";
import { overview } from "./overview.ts";
import { adminErrors } from "./schemas.ts";

/** GET /admin/overview. Registered inside adminRoutes, behind its operator check. */
export async function adminOverviewRoutes(app: App) {
  app.get(
    "/admin/overview",
    {
      schema: {
        tags: ["admin"],
        summary:
          "Revenue, GB sold and used, new and active customers, refused payments, proxy refusals by reason over 1, 7, 30 or 90 days",
        security: [{ bearer: [] }],
        querystring: overviewQuery,
        response: { 200: overviewResponse, ...adminErrors },
      },
    },
    async (request) => ({ success: true as const, data: await overview(app.database, request.query.days) }),
  );
}
