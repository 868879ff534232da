import {
  errorResponse,
  hostnamesResponse,
  routingRuleParams,
  routingRuleResponse,
  routingRulesResponse,
  saveHostnamesBody,
  updateRoutingRuleBody,
} from "@bytetoll/contracts";
import { type App, requireUser } from "../../types.ts";
import { createIntelligenceService } from "./service.ts";

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 429: errorResponse };

/** Intelligence settings: hostname hints and the caller's routing rules. */
export async function intelligenceRoutes(app: App) {
  const service = createIntelligenceService({ database: app.database, config: app.config });

  app.get(
    "/settings/hostnames",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["intelligence"],
        summary: "The host names the caller told Intelligence to learn",
        security: [{ bearer: [] }],
        response: { 200: hostnamesResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { hostnames: await service.hostnames(requireUser(request).id) },
    }),
  );

  app.post(
    "/settings/hostnames",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["intelligence"],
        summary:
          "Replace the caller's hostname hints; accounts take turns, so a new one is probed within a minute",
        description:
          "One host name per entry: an optional http:// or https:// prefix, a domain whose last label " +
          "is 2+ letters, an optional trailing slash. Stored bare and lower-case, de-duplicated, at " +
          "most 500. Blank entries are ignored; at least one is required. The learner probes one due " +
          "host name per account in turn, at most 60 per account per hour; saving the same names again " +
          "moves nothing forward.",
        security: [{ bearer: [] }],
        body: saveHostnamesBody,
        response: { 200: hostnamesResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { hostnames: await service.saveHostnames(requireUser(request).id, request.body.hostnames) },
    }),
  );

  app.get(
    "/settings/routing/rules",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["intelligence"],
        summary: "The caller's routing rules with the learner's verdict, evidence and savings",
        security: [{ bearer: [] }],
        response: { 200: routingRulesResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await service.rules(requireUser(request).id) }),
  );

  app.patch(
    "/settings/routing/rules/:id",
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["intelligence"],
        summary: "Switch one of the caller's rules on (datacenter) or off (mobile)",
        description: "The learner never overrides a rule the user switched; it keeps showing its verdict.",
        security: [{ bearer: [] }],
        params: routingRuleParams,
        body: updateRoutingRuleBody,
        response: { 200: routingRuleResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.setEnabled(requireUser(request).id, request.params.id, request.body.enabled),
    }),
  );
}
