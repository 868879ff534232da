import type { Tx } from "@bytetoll/db";
import { sql } from "drizzle-orm";

/** Who an invoice is made out to, as the account reads at this moment. */
export interface BillingSnapshot {
  email: string | null;
  company: string | null;
  address: string | null;
  country: string | null;
  vat_id: string | null;
}

/** The account's e-mail and billing details inside the caller's transaction, for a document that
 * must keep them as they were when it was issued (docs/product.md#invoices). */
export async function billingSnapshot(tx: Tx, userId: string): Promise<BillingSnapshot> {
  const { rows } = await tx.execute<{ snapshot: BillingSnapshot }>(sql`
    SELECT json_build_object('email', u.email, 'company', b.company, 'address', b.address,
                             'country', b.country, 'vat_id', b.vat_id) AS snapshot
      FROM users u LEFT JOIN billing_details b ON b.user_id = u.id WHERE u.id = ${userId}`);
  return rows[0]?.snapshot ?? { email: null, company: null, address: null, country: null, vat_id: null };
}
