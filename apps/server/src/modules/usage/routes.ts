import { Readable } from "node:stream";
import {
  DEFAULT_EXPORT_DAYS,
  DEFAULT_USAGE_DAYS,
  errorResponse,
  parseUsagePeriod,
  usageExportQuerySchema,
  usageQuerySchema,
  usageResponse,
} from "@bytetoll/contracts";
import { notFound } from "../../errors.ts";
import { type App, requireUser } from "../../types.ts";
import { createUsageService } from "./service.ts";

const errors = { 400: errorResponse, 401: errorResponse, 429: errorResponse };

/** GET /proxies/usage and its CSV export (docs/product.md#api-calls, decision 005). */
export async function usageRoutes(app: App) {
  const service = createUsageService({ database: app.database });

  app.get(
    "/proxies/usage",
    {
      // Authenticate before validating: a stranger learns nothing about the accepted parameters.
      onRequest: app.authenticate,
      schema: {
        tags: ["usage"],
        summary: "The caller's usage by UTC day, by domain or by proxy type",
        description:
          "days: 1, 7, 14, 30 or 90 (default 7 by day and by domain, 30 by proxy type). " +
          "GB = bytes / 1e9 rounded to 2 decimals. By day: one row per UTC day, zero-filled, oldest " +
          "first. By domain: largest total first; others=true keeps the top 5 plus one Others row. " +
          "By proxy_type: one row with the four metric fields. By subuser (default 30 days): one row " +
          "per sub-user (value: its label, subuser_id) and one for the main credentials (subuser_id " +
          "null), most bytes first. subuser={id} (or main) keeps only that sub-user's usage in every grouping.",
        security: [{ bearer: [] }],
        querystring: usageQuerySchema,
        response: { 200: usageResponse, ...errors },
      },
    },
    async (request) => {
      const { id } = requireUser(request);
      const { group_by: groupBy, days: daysText, others, subuser } = request.query;
      const days = parseUsagePeriod(daysText, DEFAULT_USAGE_DAYS[groupBy]);
      const only = await service.subuserFilter(id, subuser);
      if (only === "unknown") throw notFound("Sub-user not found");
      const data =
        groupBy === "day"
          ? await service.byDay(id, days, only)
          : groupBy === "domain"
            ? await service.byDomain(id, days, others === "true", only)
            : groupBy === "subuser"
              ? await service.bySubuser(id, days, only)
              : await service.byProxyType(id, days, only);
      return { success: true as const, data };
    },
  );

  app.get(
    "/proxies/usage/export",
    {
      onRequest: app.authenticate,
      // A full export reads every rollup row of the window; cheaper queries keep the global limit.
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: {
        tags: ["usage"],
        summary: "CSV of the caller's usage: one line per UTC day × domain × proxy type, exact counts",
        description:
          "Columns date,domain,proxy_type,bytes,requests,subuser (the sub-user's label, empty for the " +
          "main credentials); RFC 4180, CRLF line ends. days: 1, 7, 14, 30 or 90 (default 30); " +
          "subuser={id} or main filters. Sent as an attachment.",
        security: [{ bearer: [] }],
        querystring: usageExportQuerySchema,
        // No response schema: the body is a stream, which Fastify sends unserialised; errors
        // take the same {success:false, message} shape as every other route.
      },
    },
    async (request, reply) => {
      const { id } = requireUser(request);
      const days = parseUsagePeriod(request.query.days, DEFAULT_EXPORT_DAYS);
      const only = await service.subuserFilter(id, request.query.subuser);
      if (only === "unknown") throw notFound("Sub-user not found");
      const { window, lines } = await service.exportCsv(id, days, only);
      // A filtered export says whose rows it holds, so two downloads do not look alike.
      const whose = request.query.subuser === undefined ? "" : `-${request.query.subuser}`;
      const filename = `bytetoll-usage-${window.from}-to-${window.to}${whose}.csv`;
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${filename}"`)
        .header("cache-control", "no-store")
        .send(Readable.from(lines));
    },
  );
}
