import type { Tx } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import { billingSnapshot } from "../account/index.ts";
import type { OrderRow } from "./order-view.ts";

export type DocumentKind = "invoice" | "credit_note";
const PREFIX: Record<DocumentKind, string> = { invoice: "INV", credit_note: "CN" };

/** Who issues the documents, as configured when each is issued (OPERATOR_NAME, OPERATOR_ADDRESS,
 * OPERATOR_VAT_ID). */
export interface IssuerDetails {
  name: string;
  address: string;
  vat_id: string;
}

/** The issuer as configured now. */
export const issuerOf = (config: {
  OPERATOR_NAME: string;
  OPERATOR_ADDRESS: string;
  OPERATOR_VAT_ID: string;
}): IssuerDetails => ({
  name: config.OPERATOR_NAME,
  address: config.OPERATOR_ADDRESS,
  vat_id: config.OPERATOR_VAT_ID,
});

/** `INV-2026-000001`: the kind's prefix, the year, six digits (more past 999 999). */
export const documentNumber = (kind: DocumentKind, year: number, sequence: number) =>
  `${PREFIX[kind]}-${year}-${String(sequence).padStart(6, "0")}`;

/**
 * Issues the order's invoice (or credit note) inside the transaction that marked it paid (or
 * refunded), once: the caller's status UPDATE holds the order's row lock, so a second payment
 * event for the same order waits and then finds the document. The number comes from the kind's
 * counter for the year, incremented in this same transaction — numbers are consecutive and never
 * repeat across instances, and a rolled-back payment takes its number back with it. Without
 * `issuer` (a tool that builds its repository without the configuration) the document shows the
 * operator's details as configured when it is shown.
 */
export async function issueDocument(
  tx: Tx,
  order: OrderRow,
  kind: DocumentKind,
  issuer: IssuerDetails | null,
): Promise<void> {
  const existing = await tx.execute(
    sql`SELECT 1 FROM invoices WHERE order_id = ${order.id} AND kind = ${kind}`,
  );
  if (existing.rows.length > 0) return;
  if (kind === "credit_note") {
    const invoiced = await tx.execute(
      sql`SELECT 1 FROM invoices WHERE order_id = ${order.id} AND kind = 'invoice'`,
    );
    if (invoiced.rows.length === 0) return;
  }
  const year = new Date().getUTCFullYear();
  const counted = await tx.execute<{ last_number: number }>(sql`
    INSERT INTO invoice_counters (kind, year, last_number) VALUES (${kind}, ${year}, 1)
    ON CONFLICT (kind, year) DO UPDATE SET last_number = invoice_counters.last_number + 1
    RETURNING last_number`);
  const sequence = Number(counted.rows[0]?.last_number);
  const customer = await billingSnapshot(tx, order.userId);
  await tx.execute(sql`
    INSERT INTO invoices (kind, number, year, sequence, order_id, user_id, amount_cents, customer, operator)
    VALUES (${kind}, ${documentNumber(kind, year, sequence)}, ${year}, ${sequence}, ${order.id}, ${order.userId},
            ${Number(order.amountCents)}, ${JSON.stringify(customer)}::jsonb,
            ${JSON.stringify(issuer ?? {})}::jsonb)`);
}
