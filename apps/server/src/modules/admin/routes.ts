import {
  accountsPage,
  accountsQuery,
  adminOrdersPage,
  adminOrdersQuery,
  creditRequest,
  creditResponse,
} from "@bytetoll/contracts";
import { hashesEqual, hashSecret } from "@bytetoll/db";
import type { FastifyRequest } from "fastify";
import { unauthorized } from "../../errors.ts";
import type { App } from "../../types.ts";
import { adminDealRoutes } from "./deal-routes.ts";
import { adminErrors } from "./schemas.ts";
import { createAdminService } from "./service.ts";

const BEARER = /^Bearer\s+(\S{1,512})$/i;
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,128}$/;

/** The operator's API (decision 003): bearer ADMIN_TOKEN; without one configured it does not exist. */
export async function adminRoutes(app: App) {
  const adminToken = app.config.ADMIN_TOKEN;
  if (!adminToken) return;
  const expected = hashSecret(adminToken);
  const service = createAdminService(app.database);

  // Comparing fixed-length hashes keeps the comparison constant-time whatever was sent.
  app.addHook("onRequest", async (request: FastifyRequest) => {
    const given = BEARER.exec(request.headers.authorization ?? "")?.[1];
    if (!given || !hashesEqual(hashSecret(given), expected)) throw unauthorized();
  });
  await app.register(adminDealRoutes);

  app.post(
    "/admin/credits",
    {
      schema: {
        tags: ["admin"],
        summary: "Credit (or, with negative gb, debit) an account; Idempotency-Key makes retries safe",
        description: "Bearer ADMIN_TOKEN (not a customer token).",
        security: [{ bearer: [] }],
        body: creditRequest,
        response: { 200: creditResponse, ...adminErrors },
      },
    },
    async (request) => {
      const key = request.headers["idempotency-key"];
      const validKey = typeof key === "string" && IDEMPOTENCY_KEY.test(key) ? key : undefined;
      const { message, ...data } = await service.credit(request.body, validKey);
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
        summary: "Orders of every account, newest first",
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
