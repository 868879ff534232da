import {
  adminDealListResponse,
  adminPayoutsPage,
  adminPayoutsQuery,
  adminUuidParams,
  createDealRequest,
  dealIdParams,
  dealPriceRefusal,
  dealResponse,
  payoutResponse,
  payoutSentRequest,
  updateDealRequest,
} from "@bytetoll/contracts";
import { AppError } from "../../errors.ts";
import type { App } from "../../types.ts";
import { auditDealChange, auditPayoutChange } from "./audit.ts";
import { createAdminDeals } from "./deals.ts";
import { adminErrors } from "./schemas.ts";

/** The operator's deals and payouts, each change with its audit row written in the change's own
 * transaction (a refused change writes none); registered inside adminRoutes, behind its operator
 * check. */
export async function adminDealRoutes(app: App) {
  const listPrice = app.config.PRICE_PER_GB_USD;
  const adminDeals = createAdminDeals(app.database, app.moneyEvents.deal, listPrice);

  app.post(
    "/admin/deals",
    {
      schema: {
        tags: ["admin"],
        summary: "Create a flash sale or a group buy (live at once when its start has passed)",
        security: [{ bearer: [] }],
        body: createDealRequest,
        response: { 201: dealResponse, ...adminErrors },
      },
    },
    async (request, reply) => {
      const refusal = dealPriceRefusal(request.body.deal_price, listPrice);
      if (refusal) throw new AppError(400, refusal, "bad_deal");
      const deal = await app.deals.create(request.body, auditDealChange(request.adminActor, "deal.create"));
      return reply.code(201).send({ success: true as const, data: deal });
    },
  );

  app.patch(
    "/admin/deals/:id",
    {
      schema: {
        tags: ["admin"],
        summary: "Edit a deal before it starts (409 once it has started)",
        security: [{ bearer: [] }],
        params: dealIdParams,
        body: updateDealRequest,
        response: { 200: dealResponse, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await adminDeals.update(request.adminActor, request.params.id, request.body),
    }),
  );

  app.get(
    "/admin/deals",
    {
      schema: {
        tags: ["admin"],
        summary: "Every deal, newest first, with each one's deposits or orders so far",
        security: [{ bearer: [] }],
        response: { 200: adminDealListResponse, ...adminErrors },
      },
    },
    async () => ({ success: true as const, data: await adminDeals.withProgress(await app.deals.listAll()) }),
  );

  app.post(
    "/admin/deals/:id/cancel",
    {
      schema: {
        tags: ["admin"],
        summary: "Cancel a pending or live deal; a group buy's deposits are refunded",
        security: [{ bearer: [] }],
        params: dealIdParams,
        response: { 200: dealResponse, ...adminErrors },
      },
    },
    async (request) => {
      const deal = await app.deals.cancel(
        request.params.id,
        auditDealChange(request.adminActor, "deal.cancel"),
      );
      return { success: true as const, data: deal };
    },
  );

  app.get(
    "/admin/payouts",
    {
      schema: {
        tags: ["admin"],
        summary: "One page of payouts (withdrawn and refunded deposits), newest first",
        security: [{ bearer: [] }],
        querystring: adminPayoutsQuery,
        response: { 200: adminPayoutsPage, ...adminErrors },
      },
    },
    async (request) => {
      const { page, per_page } = request.query;
      return { success: true as const, ...(await adminDeals.payouts(request.query)), page, per_page };
    },
  );

  app.post(
    "/admin/payouts/:id/sent",
    {
      schema: {
        tags: ["admin"],
        summary: "Record that a pending payout was sent, with its transaction hash",
        security: [{ bearer: [] }],
        params: adminUuidParams,
        body: payoutSentRequest,
        response: { 200: payoutResponse, ...adminErrors },
      },
    },
    async (request) => {
      // The service checks the hash against the payout wallet's chain family, for the CLI too.
      const payout = await app.deals.payoutSent(
        request.params.id,
        request.body.tx_hash,
        auditPayoutChange(request.adminActor, "payout.sent"),
      );
      return { success: true as const, data: payout };
    },
  );

  app.post(
    "/admin/payouts/:id/failed",
    {
      schema: {
        tags: ["admin"],
        summary: "Record that a pending payout failed; its deposits can be withdrawn again",
        security: [{ bearer: [] }],
        params: adminUuidParams,
        response: { 200: payoutResponse, ...adminErrors },
      },
    },
    async (request) => {
      const payout = await app.deals.payoutFailed(
        request.params.id,
        auditPayoutChange(request.adminActor, "payout.failed"),
      );
      return { success: true as const, data: payout };
    },
  );
}
