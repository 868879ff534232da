import {
  abuseLookupQuery,
  abuseLookupResponse,
  createDestinationRuleSchema,
  destinationRuleIdParams,
  destinationRuleListResponse,
  destinationRuleResponse,
  messageResponse,
  updateDestinationRuleSchema,
} from "@bytetoll/contracts";
import type { App } from "../../types.ts";
import { abuseLookup } from "./abuse-lookup.ts";
import { createDestinationRulesService } from "./destination-rules.ts";
import { adminErrors } from "./schemas.ts";

const RULE_DESCRIPTION =
  'A rule names a domain ("example.com" or "*.example.com"), ports ("25,465,587", "1-1024") or both, ' +
  "for every customer (customer_id null) or one. A customer's rules are read before the global ones; " +
  "within a level, domain rules first, then block, report, allow, then the oldest (docs/product.md#destination-policy). " +
  "A change reaches every gateway within 5 s through the change feed and is recorded in the audit log.";

/** The operator's destination rules; registered inside adminRoutes, behind its operator check. */
export async function adminDestinationRuleRoutes(app: App) {
  const rules = createDestinationRulesService(app.database);
  const common = { tags: ["admin"], security: [{ bearer: [] }], description: RULE_DESCRIPTION };

  app.get(
    "/admin/destination-rules",
    {
      schema: {
        ...common,
        summary: "Every destination rule, in the order the gateway reads them",
        response: { 200: destinationRuleListResponse, ...adminErrors },
      },
    },
    async () => ({ success: true as const, data: await rules.list() }),
  );

  app.post(
    "/admin/destination-rules",
    {
      schema: {
        ...common,
        summary: "Add a rule: block, allow or report (let through, counted) traffic to a domain and/or ports",
        body: createDestinationRuleSchema,
        response: { 200: destinationRuleResponse, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await rules.create(request.adminActor, request.body),
    }),
  );

  app.patch(
    "/admin/destination-rules/:id",
    {
      schema: {
        ...common,
        summary: "Change a rule's action, domain, ports, customer or reason",
        params: destinationRuleIdParams,
        body: updateDestinationRuleSchema,
        response: { 200: destinationRuleResponse, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await rules.update(request.adminActor, request.params.id, request.body),
    }),
  );

  app.delete(
    "/admin/destination-rules/:id",
    {
      schema: {
        ...common,
        summary: "Delete a rule",
        params: destinationRuleIdParams,
        response: { 200: messageResponse, ...adminErrors },
      },
    },
    async (request) => {
      await rules.remove(request.adminActor, request.params.id);
      return { success: true as const, message: "Destination rule deleted" };
    },
  );

  app.get(
    "/admin/abuse-lookup",
    {
      schema: {
        tags: ["admin"],
        security: [{ bearer: [] }],
        summary: "Who reached a domain (and the names below it) or an address in a window of at most 31 days",
        description:
          "The customers and sub-users whose traffic reached the target, with bytes per UTC day, from the usage already kept (by the name the client gave). Largest first.",
        querystring: abuseLookupQuery,
        response: { 200: abuseLookupResponse, ...adminErrors },
      },
    },
    async (request) => ({ success: true as const, data: await abuseLookup(app.database, request.query) }),
  );
}
