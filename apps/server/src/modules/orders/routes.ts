import { errorResponse } from "@bytetoll/contracts";
import { sendSerializedOnce } from "../../lib/serialized-once.ts";
import { type App, requireUser } from "../../types.ts";
import {
  choosePaymentRequest,
  conflictErrors,
  createOrderRequest,
  errors,
  historyPage,
  historyQuery,
  listOrdersQuery,
  orderIdParams,
  orderPage,
  orderResponse,
  receiptResponse,
} from "./schemas.ts";

/** POST /transactions, POST /transactions/{orderId}/payment, GET /transactions/{orderId}, GET /transactions (decision 003),
 * POST /transactions/{orderId}/cancel, GET /transactions/{orderId}/receipt and GET /history
 * (docs/product.md#transaction-history). */
export async function orderRoutes(app: App) {
  app.post(
    "/transactions",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["orders"],
        summary: "Create a top-up order (USDC or card)",
        security: [{ bearer: [] }],
        body: createOrderRequest,
        response: { 201: orderResponse, ...errors, 502: errorResponse, 503: errorResponse },
      },
    },
    async (request, reply) => {
      const order = await app.orders.create(requireUser(request).id, request.body);
      return reply.code(201).send({ success: true as const, data: order });
    },
  );

  app.post(
    "/transactions/:orderId/payment",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["orders"],
        summary: "Choose how to pay an order created at sign-in (USDC network or card)",
        security: [{ bearer: [] }],
        params: orderIdParams,
        body: choosePaymentRequest,
        response: {
          200: orderResponse,
          ...errors,
          409: errorResponse,
          502: errorResponse,
          503: errorResponse,
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.orders.choosePayment(requireUser(request).id, request.params.orderId, request.body),
    }),
  );

  app.get(
    "/transactions/:orderId",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["orders"],
        summary: "One of the caller's orders",
        security: [{ bearer: [] }],
        params: orderIdParams,
        response: { 200: orderResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.orders.get(requireUser(request).id, request.params.orderId),
    }),
  );

  app.get(
    "/transactions",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["orders"],
        summary: "The caller's orders, newest first",
        security: [{ bearer: [] }],
        querystring: listOrdersQuery,
        response: { 200: orderPage, ...errors },
      },
    },
    async (request, reply) =>
      sendSerializedOnce(reply, orderPage, await app.orders.list(requireUser(request).id, request.query)),
  );

  app.post(
    "/transactions/:orderId/cancel",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["orders"],
        summary: "Cancel one of the caller's orders that is still waiting for its payment",
        security: [{ bearer: [] }],
        params: orderIdParams,
        response: { 200: orderResponse, ...conflictErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.orders.cancel(requireUser(request).id, request.params.orderId),
    }),
  );

  app.get(
    "/transactions/:orderId/receipt",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["orders"],
        summary: "The receipt of one of the caller's paid orders",
        security: [{ bearer: [] }],
        params: orderIdParams,
        response: { 200: receiptResponse, ...conflictErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.orders.receipt(requireUser(request).id, request.params.orderId),
    }),
  );

  app.get(
    "/history",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["orders"],
        summary:
          "The caller's orders and other balance changes (free GB, adjustments, deposits, refunds), newest first",
        security: [{ bearer: [] }],
        querystring: historyQuery,
        response: { 200: historyPage, ...errors },
      },
    },
    async (request) => app.orders.history(requireUser(request).id, request.query),
  );
}
