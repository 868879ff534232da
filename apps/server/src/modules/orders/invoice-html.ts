import { centsToUsd } from "@bytetoll/contracts";
import { escapeHtml } from "../../lib/html-escape.ts";
import type { IssuerDetails } from "./invoice-numbers.ts";

export interface StoredDocument {
  kind: "invoice" | "credit_note";
  number: string;
  order_id: string;
  amount_cents: number | string;
  issued_at: Date | string;
  customer: {
    email?: string;
    company?: string | null;
    address?: string | null;
    country?: string | null;
    vat_id?: string | null;
  };
  operator: Partial<IssuerDetails>;
  /** The credit note's invoice, or the invoice's credit note. */
  related: string | null;
  gb: number;
  method: string | null;
}

const lines = (text: string | null | undefined) =>
  (text ?? "")
    .split(/\r?\n|\\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map(escapeHtml);

function party(title: string, rows: string[]): string {
  return `<section><h2>${title}</h2><p>${rows.join("<br>")}</p></section>`;
}

/** A print-ready page (the browser's Print → PDF makes the PDF): who issues it, to whom as they
 * were when it was issued, what was bought, the total. Credit notes carry negative amounts. */
export function documentHtml(doc: StoredDocument, fallback: IssuerDetails): string {
  const operator = doc.operator.name ? (doc.operator as IssuerDetails) : fallback;
  const credit = doc.kind === "credit_note";
  const title = credit ? "Credit note" : "Invoice";
  const amount = centsToUsd(Number(doc.amount_cents)) * (credit ? -1 : 1);
  const money = `${amount < 0 ? "−" : ""}$${Math.abs(amount).toFixed(2)}`;
  const customer = [
    ...lines(doc.customer.company),
    ...lines(doc.customer.address),
    ...lines(doc.customer.country),
    ...(doc.customer.vat_id ? [`VAT ID: ${escapeHtml(doc.customer.vat_id)}`] : []),
    ...lines(doc.customer.email),
  ];
  const issuer = [
    escapeHtml(operator.name),
    ...lines(operator.address),
    ...(operator.vat_id ? [`VAT ID: ${escapeHtml(operator.vat_id)}`] : []),
  ];
  const related = doc.related
    ? `<p>${credit ? "Cancels invoice" : "Cancelled by credit note"} ${escapeHtml(doc.related)}</p>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title} ${escapeHtml(doc.number)}</title>
<style>body{font:14px/1.5 system-ui,sans-serif;color:#0f172a;max-width:720px;margin:2rem auto;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:.8rem;text-transform:uppercase;color:#475569;margin:0}
.parties{display:flex;gap:2rem;flex-wrap:wrap}table{width:100%;border-collapse:collapse;margin-top:1.5rem}
th,td{text-align:left;padding:.5rem;border-bottom:1px solid #e2e8f0}td.n{text-align:right}
@media print{body{margin:0}}</style></head>
<body><main><h1>${title} ${escapeHtml(doc.number)}</h1>
<p>Issued ${new Date(doc.issued_at).toISOString().slice(0, 10)} · Order ${escapeHtml(doc.order_id)}</p>${related}
<div class="parties">${party("From", issuer)}${party("To", customer)}</div>
<table><thead><tr><th>Description</th><th>Payment</th><th class="n">Amount (USD)</th></tr></thead>
<tbody><tr><td>Proxy data, ${doc.gb} GB</td><td>${doc.method === "card" ? "Card" : "USDC"}</td><td class="n">${money}</td></tr></tbody>
<tfoot><tr><th colspan="2">Total</th><th class="n">${money}</th></tr></tfoot></table>
</main></body></html>`;
}
