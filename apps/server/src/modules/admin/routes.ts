import {
  accountsPage,
  accountsQuery,
  adminMeResponse,
  adminOrdersPage,
  adminOrdersQuery,
  creditRequest,
  creditResponse,
} from "@bytetoll/contracts";
import type { FastifyRequest } from "fastify";
import type { App } from "../../types.ts";
import { ADMIN_TOKEN_ACTOR } from "./audit.ts";
import { adminAuditRoutes } from "./audit-routes.ts";
import { adminCustomerRoutes } from "./customer-routes.ts";
import { adminDealRoutes } from "./deal-routes.ts";
import { adminDestinationRuleRoutes } from "./destination-rule-routes.ts";
import { adminJobsRoutes } from "./jobs-routes.ts";
import { adminNetworkRoutes } from "./network-routes.ts";
import { adminApiEnabled, createOperatorCheck } from "./operator-auth.ts";
import { adminOrderRoutes } from "./order-routes.ts";
import { adminOverviewRoutes } from "./overview-routes.ts";
import { adminErrors, idempotencyKey } from "./schemas.ts";
import { createAdminService } from "./service.ts";
import { adminUpstreamRoutes } from "./upstream-routes.ts";

/**
 * The operator's API (decision 003, docs/product.md#operators): for ADMIN_TOKEN and the accounts
 * in ADMIN_EMAILS; without either setting it does not exist (404). Every route answers 401
 * without credentials and 403 to a customer.
 */
export async function adminRoutes(app: App) {
  if (!adminApiEnabled(app)) return;
  const operatorOf = createOperatorCheck(app);
  const service = createAdminService(app.database);

  app.decorateRequest("adminActor", "");
  app.addHook("onRequest", async (request: FastifyRequest) => {
    request.adminActor = await operatorOf(request);
  });
  await app.register(adminDealRoutes);
  await app.register(adminNetworkRoutes);
  await app.register(adminCustomerRoutes);
  await app.register(adminOrderRoutes);
  await app.register(adminJobsRoutes);
  await app.register(adminOverviewRoutes);
  await app.register(adminAuditRoutes);
  await app.register(adminUpstreamRoutes);
  await app.register(adminDestinationRuleRoutes);

  app.get(
    "/admin/me",
    {
      schema: {
        tags: ["admin"],
        summary: "Who is calling: 200 for an operator (ADMIN_EMAILS or ADMIN_TOKEN), 403 for a customer",
        security: [{ bearer: [] }],
        response: { 200: adminMeResponse, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        actor: request.adminActor,
        email: request.adminActor === ADMIN_TOKEN_ACTOR ? null : request.adminActor,
      },
    }),
  );

  app.post(
    "/admin/credits",
    {
      schema: {
        tags: ["admin"],
        summary: "Credit (or, with negative gb, debit) an account; Idempotency-Key makes retries safe",
        description: "An operator's session or ADMIN_TOKEN (not a customer's token).",
        security: [{ bearer: [] }],
        body: creditRequest,
        response: { 200: creditResponse, ...adminErrors },
      },
    },
    async (request) => {
      const { message, ...data } = await service.credit(
        request.adminActor,
        request.body,
        idempotencyKey(request),
      );
      return { success: true as const, message, data };
    },
  );

  app.get(
    "/admin/accounts",
    {
      schema: {
        tags: ["admin"],
        summary: "Accounts, newest first (email filters by substring)",
        security: [{ bearer: [] }],
        querystring: accountsQuery,
        response: { 200: accountsPage, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await service.accounts(request.query)),
      page: request.query.page,
      per_page: request.query.per_page,
    }),
  );

  app.get(
    "/admin/orders",
    {
      schema: {
        tags: ["admin"],
        summary: "Orders of every account, newest first (status, method, provider, from/to day, email)",
        security: [{ bearer: [] }],
        querystring: adminOrdersQuery,
        response: { 200: adminOrdersPage, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await service.orders(request.query)),
      page: request.query.page,
      per_page: request.query.per_page,
    }),
  );
}
