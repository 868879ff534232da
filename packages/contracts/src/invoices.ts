import { z } from "zod";
import { successEnvelope } from "./envelope.ts";
import { countryCodeProblem } from "./proxy-username.ts";

/** docs/product.md#invoices: the details a company books an invoice with. Each is optional; an
 * empty string clears it. Copied into every invoice when it is issued. */
const detail = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .max(max, `${name} is at most ${max} characters`)
    .nullable()
    .optional()
    .transform((value) => (value ? value : null));

export const billingDetailsUpdateSchema = z.strictObject(
  {
    company: detail("company", 200),
    address: detail("address", 500),
    country: detail("country", 2).refine(
      (code) => code === null || countryCodeProblem(code) === null,
      "country must be an ISO 3166-1 alpha-2 code",
    ),
    vat_id: detail("vat_id", 50),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown field: ${issue.keys.join(", ")}` : undefined,
  },
);
export type BillingDetailsUpdate = z.input<typeof billingDetailsUpdateSchema>;

export const billingDetailsSchema = z.object({
  company: z.string().nullable(),
  address: z.string().nullable(),
  country: z.string().nullable(),
  vat_id: z.string().nullable(),
});
export type BillingDetails = z.infer<typeof billingDetailsSchema>;
export const billingDetailsResponse = successEnvelope(billingDetailsSchema);

export const DOCUMENT_KINDS = ["invoice", "credit_note"] as const;

/** An issued invoice or credit note, as the history lists it. */
export const invoiceSummarySchema = z.object({
  number: z.string(),
  kind: z.enum(DOCUMENT_KINDS),
  order_id: z.string(),
  amount_usd: z.number(),
  issued_at: z.string(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;
export const invoiceListResponse = successEnvelope(z.array(invoiceSummarySchema));
export const invoiceNumberParams = z.object({
  number: z.string().regex(/^(INV|CN)-\d{4}-\d{6,}$/, "number must be like INV-2026-000001"),
});
