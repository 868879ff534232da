import {
  adminOrderDetailResponse,
  adminOrderResponse,
  adminUuidParams,
  customerActionRequest,
} from "@bytetoll/contracts";
import type { App } from "../../types.ts";
import { orderPublisher } from "../orders/index.ts";
import { createAdminOrders } from "./orders.ts";
import { adminErrors } from "./schemas.ts";

const security = [{ bearer: [] }];

/** One order with its events, and the operator's two actions on orders. Registered inside
 * adminRoutes, behind its operator check. */
export async function adminOrderRoutes(app: App) {
  const orders = createAdminOrders({
    database: app.database,
    settlement: app.settlement,
    deals: app.deals,
    publishOrder: orderPublisher(app.moneyEvents.order),
  });

  app.get(
    "/admin/orders/:id",
    {
      schema: {
        tags: ["admin"],
        summary:
          "One order with what happened to it: credits, reversals, refused callbacks, operators' actions",
        security,
        params: adminUuidParams,
        response: { 200: adminOrderDetailResponse, ...adminErrors },
      },
    },
    async (request) => ({ success: true as const, data: await orders.detail(request.params.id) }),
  );

  app.post(
    "/admin/orders/:id/mark-paid",
    {
      schema: {
        tags: ["admin"],
        summary: "Pay a waiting sandbox order in full (credits it once; 409 for any other order)",
        security,
        params: adminUuidParams,
        body: customerActionRequest,
        response: { 200: adminOrderResponse, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      message: "Order marked paid",
      data: await orders.markPaid(request.adminActor, request.params.id, request.body?.note),
    }),
  );

  app.post(
    "/admin/orders/:id/expire",
    {
      schema: {
        tags: ["admin"],
        summary: "Expire a waiting order (409 for any other; a payment that still arrives is credited)",
        security,
        params: adminUuidParams,
        body: customerActionRequest,
        response: { 200: adminOrderResponse, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      message: "Order expired",
      data: await orders.expire(request.adminActor, request.params.id, request.body?.note),
    }),
  );
}
