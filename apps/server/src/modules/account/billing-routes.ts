import { billingDetailsResponse, billingDetailsUpdateSchema, errorResponse } from "@bytetoll/contracts";
import { type App, requireUser } from "../../types.ts";

const EMPTY = { company: null, address: null, country: null, vat_id: null };
const errors = { 401: errorResponse, 429: errorResponse };

/** GET and PUT /account/billing (docs/product.md#invoices): what the next invoices will name. */
export async function billingRoutes(app: App) {
  app.get(
    "/account/billing",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["account"],
        summary: "The caller's billing details (company, address, country, VAT id) for invoices",
        security: [{ bearer: [] }],
        response: { 200: billingDetailsResponse, ...errors },
      },
    },
    async (request) => {
      const [row] = await app.database.query<typeof EMPTY>(
        "SELECT company, address, country, vat_id FROM billing_details WHERE user_id = $1",
        [requireUser(request).id],
      );
      return { success: true as const, data: row ?? EMPTY };
    },
  );

  app.put(
    "/account/billing",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["account"],
        summary:
          "Replace the caller's billing details; invoices already issued keep the details they were issued with",
        security: [{ bearer: [] }],
        body: billingDetailsUpdateSchema,
        response: { 200: billingDetailsResponse, 400: errorResponse, ...errors },
      },
    },
    async (request) => {
      const { company, address, country, vat_id } = request.body;
      const [row] = await app.database.query<typeof EMPTY>(
        `INSERT INTO billing_details (user_id, company, address, country, vat_id) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (user_id) DO UPDATE SET company = $2, address = $3, country = $4, vat_id = $5, updated_at = now()
         RETURNING company, address, country, vat_id`,
        [requireUser(request).id, company, address, country?.toUpperCase() ?? null, vat_id],
      );
      return { success: true as const, data: row ?? EMPTY };
    },
  );
}
