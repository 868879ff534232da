import {
  bytesToGb,
  centsToUsd,
  errorResponse,
  invoiceListResponse,
  invoiceNumberParams,
} from "@bytetoll/contracts";
import { z } from "zod";
import { notFound } from "../../errors.ts";
import { type App, requireUser } from "../../types.ts";
import { documentHtml, type StoredDocument } from "./invoice-html.ts";
import { issuerOf } from "./invoice-numbers.ts";

const errors = { 401: errorResponse, 404: errorResponse, 429: errorResponse };

/** GET /account/invoices and one document as a print-ready page (docs/product.md#invoices). */
export async function invoiceRoutes(app: App) {
  app.get(
    "/account/invoices",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["orders"],
        summary: "The caller's invoices and credit notes, newest first",
        security: [{ bearer: [] }],
        response: { 200: invoiceListResponse, ...errors },
      },
    },
    async (request) => {
      const rows = await app.database.query<{
        number: string;
        kind: "invoice" | "credit_note";
        order_id: string;
        amount_cents: string | number;
        issued_at: Date | string;
      }>(
        `SELECT number, kind, order_id, amount_cents, issued_at FROM invoices
          WHERE user_id = $1 ORDER BY issued_at DESC, number DESC`,
        [requireUser(request).id],
      );
      return {
        success: true as const,
        data: rows.map((row) => ({
          number: row.number,
          kind: row.kind,
          order_id: row.order_id,
          amount_usd: centsToUsd(Number(row.amount_cents)),
          issued_at: new Date(row.issued_at).toISOString(),
        })),
      };
    },
  );

  app.get(
    "/account/invoices/:number",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["orders"],
        summary: "One invoice or credit note of the caller's, as a print-ready HTML page",
        security: [{ bearer: [] }],
        params: invoiceNumberParams,
        response: { 200: z.string(), 400: errorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const [row] = await app.database.query<StoredDocument & { bytes: string | number }>(
        `SELECT i.kind, i.number, i.order_id, i.amount_cents, i.issued_at, i.customer, i.operator,
                o.bytes, o.method,
                (SELECT r.number FROM invoices r WHERE r.order_id = i.order_id AND r.kind <> i.kind) AS related
           FROM invoices i JOIN orders o ON o.id = i.order_id
          WHERE i.user_id = $1 AND i.number = $2`,
        [requireUser(request).id, request.params.number],
      );
      if (!row) throw notFound("No such invoice or credit note");
      reply.type("text/html; charset=utf-8").header("cache-control", "private, no-store");
      return documentHtml({ ...row, gb: bytesToGb(Number(row.bytes)) }, issuerOf(app.config));
    },
  );
}
