import {
  createWebhookRequest,
  errorResponse,
  okResponse,
  webhookDeliveryListResponse,
  webhookEndpointListResponse,
  webhookEndpointResponse,
} from "@bytetoll/contracts";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { type App, requireUser } from "../../types.ts";

const idParams = z.object({ id: z.string().max(64) });
const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 429: errorResponse };
const tags = ["webhooks"];
const security = [{ bearer: [] }];

/** docs/product.md#webhooks: a customer's endpoints, their test ping and delivery log. */
export async function webhookRoutes(app: App) {
  const service = app.webhooks.service;
  const limited = {
    rateLimit: {
      max: 60,
      timeWindow: 60 * 60_000,
      errorResponseBuilder: () =>
        new AppError(429, "Too many webhook changes. Please wait a while and try again.", "rate_limited"),
    },
  };

  app.post(
    "/webhooks",
    {
      preHandler: app.authenticate,
      config: limited,
      schema: {
        tags,
        security,
        summary: "Add an endpoint; its signing secret is shown in full only in this answer",
        body: createWebhookRequest,
        response: { 200: webhookEndpointResponse, 409: errorResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.create(requireUser(request).id, request.body),
    }),
  );

  app.get(
    "/webhooks",
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The caller's endpoints",
        response: { 200: webhookEndpointListResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await service.list(requireUser(request).id) }),
  );

  app.delete(
    "/webhooks/:id",
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "Remove an endpoint",
        params: idParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await service.remove(requireUser(request).id, request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    "/webhooks/:id/test",
    {
      preHandler: app.authenticate,
      config: limited,
      schema: {
        tags,
        security,
        summary: "Send a ping event to the endpoint",
        params: idParams,
        response: {
          200: z.object({ success: z.literal(true), data: z.object({ event_id: z.string() }) }),
          ...errors,
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.test(requireUser(request).id, request.params.id),
    }),
  );

  app.get(
    "/webhooks/:id/deliveries",
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The endpoint's last 100 deliveries, newest first",
        params: idParams,
        response: { 200: webhookDeliveryListResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.deliveries(requireUser(request).id, request.params.id),
    }),
  );
}
