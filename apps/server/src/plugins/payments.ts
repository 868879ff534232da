import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createPayments, type Payments, type PaymentsOptions } from "../modules/payments/index.ts";

declare module "fastify" {
  interface FastifyInstance {
    payments: Payments;
  }
}

async function paymentsPlugin(app: FastifyInstance, options: PaymentsOptions) {
  app.decorate("payments", createPayments(app.config, options));
}

export default fp(paymentsPlugin, { name: "payments" });
