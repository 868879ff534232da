import {
  type AdminDeal,
  type AdminPayout,
  type AdminPayoutsQuery,
  createDealRequest,
  type Deal,
  dealPriceRefusal,
  decodeDealId,
  type UpdateDealRequest,
} from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import { AppError } from "../../errors.ts";
import {
  dealProgress,
  lockDeal,
  payoutsForOperator,
  saveDealEdit,
  toDealView,
  toPayoutView,
} from "../deals/index.ts";
import { appendAudit } from "./audit.ts";

const dealNotFound = () => new AppError(404, "Deal not found", "not_found");

/** The operator's side of deals beyond the deals service: each deal's progress, and editing a
 * deal before it starts (docs/product.md#operators). */
export function createAdminDeals(database: Database, publish: (deal: Deal) => void, listPriceUsd: number) {
  const { db } = database;

  return {
    /** One page of payouts, newest first, each with its customer's e-mail, and how many match in all. */
    async payouts(query: AdminPayoutsQuery): Promise<{ data: AdminPayout[]; total: number }> {
      const { rows, total } = await payoutsForOperator(database, query);
      return {
        data: rows.map((row) => ({ ...toPayoutView(row.payout), email: row.email })),
        total,
      };
    },

    /** Every deal (as the deals service lists them) with its deposits or orders so far. */
    async withProgress(deals: Deal[]): Promise<AdminDeal[]> {
      const ids = deals.map((deal) => decodeDealId(deal.id)).filter((id): id is number => id !== null);
      const rows = await dealProgress(database, ids);
      const byId = new Map(rows.map((row) => [Number(row.deal_id), row]));
      return deals.map((deal) => {
        const row = byId.get(decodeDealId(deal.id) ?? -1);
        const percent = deal.deal_target_gb > 0 ? (deal.deal_reserved_gb / deal.deal_target_gb) * 100 : 0;
        return {
          ...deal,
          deposited_usd: deal.deal_type === "group_buy" ? Number(row?.deposited_cents ?? 0) / 100 : 0,
          participants: Number(row?.participants ?? 0),
          progress_percent: Math.round(percent * 100) / 100,
        };
      });
    },

    /**
     * PATCH /admin/deals/{id}: only while the deal is pending and its start is ahead (nobody can
     * have bought or deposited yet); the merged deal is checked by the same schema as a new one.
     */
    async update(actor: string, encodedId: string, changes: UpdateDealRequest): Promise<Deal> {
      const id = decodeDealId(encodedId);
      if (id === null) throw dealNotFound();
      const updated = await db.transaction(async (tx) => {
        const row = await lockDeal(tx, id);
        if (!row) throw dealNotFound();
        const before = toDealView(row);
        if (row.status !== "pending" || row.startTime.getTime() <= Date.now()) {
          throw new AppError(
            409,
            `A deal can be edited only before it starts; this one is ${before.status}.`,
            "deal_started",
          );
        }
        const merged = createDealRequest.safeParse({
          deal_type: before.deal_type,
          deal_title: changes.deal_title ?? before.deal_title,
          deal_description: changes.deal_description ?? before.deal_description,
          deal_price: changes.deal_price ?? before.deal_price,
          deal_start_time: changes.deal_start_time ?? before.deal_start_time,
          deal_end_time: changes.deal_end_time ?? before.deal_end_time,
          deal_target_gb: changes.deal_target_gb ?? before.deal_target_gb,
        });
        if (!merged.success) {
          const issue = merged.error.issues[0];
          throw new AppError(400, issue?.message ?? "Invalid deal", "bad_deal");
        }
        const next = merged.data;
        const refusal = dealPriceRefusal(next.deal_price, listPriceUsd);
        if (refusal) throw new AppError(400, refusal, "bad_deal");
        if (Date.parse(next.deal_end_time) <= Date.now()) {
          throw new AppError(400, "deal_end_time must be in the future", "bad_deal");
        }
        const saved = await saveDealEdit(tx, id, next);
        if (!saved) throw dealNotFound();
        const after = toDealView(saved);
        await appendAudit(tx, {
          actor,
          action: "deal.update",
          subjectType: "deal",
          subjectId: encodedId,
          before,
          after,
        });
        return after;
      });
      publish(updated);
      return updated;
    },
  };
}
