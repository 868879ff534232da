import {
  accountsQuery,
  adminCustomerDetailResponse,
  adminCustomersPage,
  adminUuidParams,
  creditResponse,
  customerActionRequest,
  customerActionResponse,
  customerCreditRequest,
  customerDetailQuery,
} from "@bytetoll/contracts";
import type { App } from "../../types.ts";
import { createCredentialsService } from "../credentials/index.ts";
import { appendAudit } from "./audit.ts";
import { createCustomersService } from "./customers.ts";
import { adminErrors, idempotencyKey } from "./schemas.ts";
import { createAdminService } from "./service.ts";

const security = [{ bearer: [] }];

/** The console's customers: search, one customer's page, and the actions on them, each with an
 * audit row (docs/product.md#operators). Registered inside adminRoutes, behind its operator check. */
export async function adminCustomerRoutes(app: App) {
  const customers = createCustomersService(app.database);
  const admin = createAdminService(app.database);
  const credentials = createCredentialsService({
    database: app.database,
    appSecret: app.config.JWT_SECRET,
    log: app.log,
  });
  const action = (summary: string) => ({
    schema: {
      tags: ["admin"],
      summary,
      security,
      params: adminUuidParams,
      body: customerActionRequest,
      response: { 200: customerActionResponse, ...adminErrors },
    },
  });

  app.get(
    "/admin/customers",
    {
      schema: {
        tags: ["admin"],
        summary: "Customers, newest first (email filters by substring)",
        security,
        querystring: accountsQuery,
        response: { 200: adminCustomersPage, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await customers.list(request.query)),
      page: request.query.page,
      per_page: request.query.per_page,
    }),
  );

  app.get(
    "/admin/customers/:id",
    {
      schema: {
        tags: ["admin"],
        summary:
          "One customer: balance, lease, sessions, API token, credentials, 30 days of usage, ledger, orders and sub-users (a page, with each one's limit, use and 30 days)",
        security,
        params: adminUuidParams,
        querystring: customerDetailQuery,
        response: { 200: adminCustomerDetailResponse, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await customers.detail(request.params.id, request.query),
    }),
  );

  app.post(
    "/admin/customers/:id/credit",
    {
      schema: {
        tags: ["admin"],
        summary: "Credit (or, with negative gb, debit) the customer; Idempotency-Key makes retries safe",
        security,
        params: adminUuidParams,
        body: customerCreditRequest,
        response: { 200: creditResponse, ...adminErrors },
      },
    },
    async (request) => {
      const { gb, note } = request.body;
      const { message, ...data } = await admin.creditById(
        request.adminActor,
        request.params.id,
        gb,
        note,
        idempotencyKey(request),
      );
      return { success: true as const, message, data };
    },
  );

  app.post(
    "/admin/customers/:id/revoke-sessions",
    action("Sign the customer out everywhere (the API token and proxy credentials keep working)"),
    async (request) => {
      const count = await customers.revokeSessions(request.adminActor, request.params.id, request.body?.note);
      return {
        success: true as const,
        message: count === 1 ? "1 session revoked" : `${count} sessions revoked`,
        data: await customers.find(request.params.id),
      };
    },
  );

  app.post(
    "/admin/customers/:id/regenerate-credentials",
    action("New proxy password (same username); every gateway refuses the old one within a second"),
    async (request) => {
      const { id } = request.params;
      const customer = await customers.find(id);
      const { username } = await credentials.regenerate(id);
      await appendAudit(app.database.db, {
        actor: request.adminActor,
        action: "customer.regenerate_credentials",
        subjectType: "account",
        subjectId: id,
        before: { username },
        after: { username, password: "regenerated" },
        note: request.body?.note ?? null,
      });
      return { success: true as const, message: "Proxy password regenerated", data: customer };
    },
  );

  app.post(
    "/admin/customers/:id/disable",
    action("Disable the account: its API calls get 403, the gateway refuses it, sign-in is refused"),
    async (request) => {
      const { changed, customer } = await customers.setDisabled(
        request.adminActor,
        request.params.id,
        true,
        request.body?.note,
      );
      return {
        success: true as const,
        message: changed ? "Account disabled" : "Already disabled",
        data: customer,
      };
    },
  );

  app.post("/admin/customers/:id/enable", action("Enable a disabled account again"), async (request) => {
    const { changed, customer } = await customers.setDisabled(
      request.adminActor,
      request.params.id,
      false,
      request.body?.note,
    );
    return {
      success: true as const,
      message: changed ? "Account enabled" : "Already enabled",
      data: customer,
    };
  });
}
