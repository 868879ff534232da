import { randomUUID } from "node:crypto";
import {
  type AccountsQuery,
  type AdminAccount,
  type AdminOrder,
  type AdminOrdersQuery,
  bytesToGb,
  type CreditRequest,
  gbToBytes,
} from "@bytetoll/contracts";
import { adjustBalance, type Database } from "@bytetoll/db";
import { AppError } from "../../errors.ts";
import { adjustmentByReference } from "../account/index.ts";
import { type AccountRow, accountByEmail, accountById, accountsPage } from "../auth/index.ts";
import { type OrderRow, ordersForOperator, toOrderView } from "../orders/index.ts";
import { appendAudit } from "./audit.ts";

/** The customer's order shape plus who, the provider's payment id and how much reached the ledger. */
export const toAdminOrder = (row: OrderRow, email: string): AdminOrder => ({
  ...toOrderView(row),
  email,
  provider_payment_id: row.providerPaymentId,
  credited_gb: bytesToGb(Number(row.creditedBytes)),
  reversed_gb: bytesToGb(Number(row.reversedBytes)),
});

const toAccount = (row: AccountRow): AdminAccount => ({
  id: row.id,
  email: row.email,
  balance_bytes: Number(row.balance_bytes),
  balance_gb: bytesToGb(Number(row.balance_bytes)),
  created_at: new Date(row.created_at).toISOString(),
});

/** `%` and `_` typed by an operator are literal characters, not wildcards. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`).toLowerCase()}%`;

const KEY_REUSED =
  "This Idempotency-Key was already used for a different credit (another customer, amount or note). Use a new key for a new credit.";

/** A retry is the same credit: same customer, same bytes, same note as the entry its key made. */
async function assertSameCredit(
  tx: Pick<Database["db"], "execute">,
  reference: string,
  credit: { userId: string; deltaBytes: number; note: string },
): Promise<void> {
  const first = await adjustmentByReference(tx, reference);
  const same =
    first?.user_id === credit.userId &&
    Number(first.delta_bytes) === credit.deltaBytes &&
    (first.note ?? "") === credit.note;
  if (!same) throw new AppError(422, KEY_REUSED, "idempotency_key_reused");
}

/** What the operator can do (admin API and CLI share it): adjust balances, look at accounts and orders. */
export function createAdminService(database: Database) {
  const accountNotFound = () => new AppError(404, "Account not found", "not_found");
  async function byEmail(email: string): Promise<AccountRow> {
    const row = await accountByEmail(database, email);
    if (!row) throw accountNotFound();
    return row;
  }

  async function byId(id: string): Promise<AccountRow> {
    const row = await accountById(database, id);
    if (!row) throw accountNotFound();
    return row;
  }

  /** An `adjustment` ledger entry and its audit row, in one transaction. `key` makes a retried
   * request a no-op (same reference, no second audit row); the same key with another customer,
   * amount or note is refused (422) rather than silently taken as done. */
  async function creditAccount(actor: string, user: AccountRow, gb: number, note: string, key?: string) {
    const deltaBytes = gbToBytes(gb);
    const result = await database.db.transaction(async (tx) => {
      const applied = await adjustBalance(tx, {
        userId: user.id,
        key: key ?? randomUUID(),
        deltaBytes,
        note,
      });
      if (!applied.applied)
        await assertSameCredit(tx, applied.reference, { userId: user.id, deltaBytes, note });
      if (applied.applied && applied.balanceBytes !== null) {
        await appendAudit(tx, {
          actor,
          action: gb > 0 ? "customer.credit" : "customer.debit",
          subjectType: "account",
          subjectId: user.id,
          before: { balance_bytes: applied.balanceBytes - deltaBytes },
          after: { balance_bytes: applied.balanceBytes, reference: applied.reference },
          note,
        });
      }
      return applied;
    });
    return {
      message: result.applied ? "Balance adjusted" : "Already applied",
      account: toAccount(await byId(user.id)),
      delta_bytes: result.applied ? deltaBytes : 0,
      reference: result.reference,
    };
  }

  return {
    /** POST /admin/credits and the CLI: by e-mail. */
    async credit(actor: string, input: CreditRequest, key?: string) {
      return creditAccount(actor, await byEmail(input.email), input.gb, input.note, key);
    },

    /** POST /admin/customers/{id}/credit: by account id. */
    async creditById(actor: string, id: string, gb: number, note: string, key?: string) {
      return creditAccount(actor, await byId(id), gb, note, key);
    },

    async accounts(query: AccountsQuery): Promise<{ data: AdminAccount[]; total: number }> {
      const filter = query.email ? likePattern(query.email) : null;
      const { rows, total } = await accountsPage(database, filter, query.per_page, query.page);
      return { data: rows.map(toAccount), total };
    },

    async orders(query: AdminOrdersQuery): Promise<{ data: AdminOrder[]; total: number }> {
      const filter = query.email ? likePattern(query.email) : null;
      const { rows, total } = await ordersForOperator(database, query, filter);
      return {
        data: rows.map((row) => toAdminOrder(row.order, row.email)),
        total,
      };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
