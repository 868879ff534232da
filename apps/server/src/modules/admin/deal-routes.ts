import {
  createDealRequest,
  dealIdParams,
  dealListResponse,
  dealResponse,
  errorResponse,
  PAYOUT_STATUSES,
  payoutListResponse,
  payoutResponse,
  payoutSentRequest,
} from "@bytetoll/contracts";
import { z } from "zod";
import type { App } from "../../types.ts";
import { adminErrors } from "./schemas.ts";

const errors = { ...adminErrors, 409: errorResponse };
const payoutParams = z.object({ id: z.string().max(64) });
const payoutsQuery = z
  .object({ status: z.enum(PAYOUT_STATUSES, { error: "status must be pending, sent or failed" }).optional() })
  .strict();

/** The operator's deals and payouts; registered inside adminRoutes, behind its bearer check. */
export async function adminDealRoutes(app: App) {
  app.post(
    "/admin/deals",
    {
      schema: {
        tags: ["admin"],
        summary: "Create a flash sale or a group buy (live at once when its start has passed)",
        security: [{ bearer: [] }],
        body: createDealRequest,
        response: { 201: dealResponse, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ success: true as const, data: await app.deals.create(request.body) }),
  );

  app.get(
    "/admin/deals",
    {
      schema: {
        tags: ["admin"],
        summary: "Every deal, newest first",
        security: [{ bearer: [] }],
        response: { 200: dealListResponse, ...errors },
      },
    },
    async () => ({ success: true as const, data: await app.deals.listAll() }),
  );

  app.post(
    "/admin/deals/:id/cancel",
    {
      schema: {
        tags: ["admin"],
        summary: "Cancel a pending or live deal; a group buy's deposits are refunded",
        security: [{ bearer: [] }],
        params: dealIdParams,
        response: { 200: dealResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await app.deals.cancel(request.params.id) }),
  );

  app.get(
    "/admin/payouts",
    {
      schema: {
        tags: ["admin"],
        summary: "Payouts (withdrawn and refunded deposits), newest first",
        security: [{ bearer: [] }],
        querystring: payoutsQuery,
        response: { 200: payoutListResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await app.deals.payouts(request.query) }),
  );

  app.post(
    "/admin/payouts/:id/sent",
    {
      schema: {
        tags: ["admin"],
        summary: "Record that a pending payout was sent, with its transaction hash",
        security: [{ bearer: [] }],
        params: payoutParams,
        body: payoutSentRequest,
        response: { 200: payoutResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.deals.payoutSent(request.params.id, request.body.tx_hash),
    }),
  );

  app.post(
    "/admin/payouts/:id/failed",
    {
      schema: {
        tags: ["admin"],
        summary: "Record that a pending payout failed; its deposits can be withdrawn again",
        security: [{ bearer: [] }],
        params: payoutParams,
        response: { 200: payoutResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await app.deals.payoutFailed(request.params.id) }),
  );
}
