import {
  dealIdParams,
  dealListResponse,
  dealResponse,
  depositsResponse,
  errorResponse,
  messageResponse,
  payoutListResponse,
  withdrawFieldError,
  withdrawRequest,
} from "@bytetoll/contracts";
import { z } from "zod";
import { type App, requireUser } from "../../types.ts";

const errors = {
  400: errorResponse,
  401: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
};

/** GET /deals/latestv2, GET /deals/{id}, GET /deals/{id}/deposits, POST /deals/{id}/withdraw,
 * GET /payouts. */
export async function dealRoutes(app: App) {
  app.get(
    "/payouts",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["deals"],
        summary: "The caller's payouts: withdrawn and refunded group-buy deposits, newest first",
        security: [{ bearer: [] }],
        response: { 200: payoutListResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.deals.payouts({ userId: requireUser(request).id }),
    }),
  );

  app.get(
    "/deals/latestv2",
    {
      schema: {
        tags: ["deals"],
        summary: "Live and pending deals, and those that ended in the last 7 days",
        response: { 200: dealListResponse },
      },
    },
    async () => ({ success: true as const, data: await app.deals.listPublic() }),
  );

  app.get(
    "/deals/:id",
    {
      schema: {
        tags: ["deals"],
        summary: "One deal by its encoded id",
        params: dealIdParams,
        response: { 200: dealResponse, 404: errorResponse },
      },
    },
    async (request) => ({ success: true as const, data: await app.deals.get(request.params.id) }),
  );

  app.get(
    "/deals/:id/deposits",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["deals"],
        summary: "The caller's deposit in a group buy (held, or owed back)",
        security: [{ bearer: [] }],
        params: dealIdParams,
        response: { 200: depositsResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.deals.deposits(requireUser(request).id, request.params.id),
    }),
  );

  app.post(
    "/deals/:id/withdraw",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["deals"],
        summary: "Withdraw the caller's group-buy deposit to a wallet (a payout the operator sends)",
        security: [{ bearer: [] }],
        params: dealIdParams,
        // Validated below: a bad wallet address is a 422 naming the field.
        body: z.unknown(),
        response: { 200: messageResponse, ...errors, 422: withdrawFieldError },
      },
    },
    async (request, reply) => {
      const parsed = withdrawRequest.safeParse(request.body ?? {});
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? "Please enter a wallet address";
        return reply
          .code(422)
          .send({ success: false as const, message, errors: { wallet_address: [message] } });
      }
      const { id } = requireUser(request);
      const message = await app.deals.withdraw(id, request.params.id, parsed.data.wallet_address);
      return { success: true as const, message };
    },
  );
}
