import { type AdminOrder, type AdminOrderEvent, bytesToGb } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import { AppError } from "../../errors.ts";
import { ledgerForOrder } from "../account/index.ts";
import type { DealsService } from "../deals/index.ts";
import { createOrdersRepository, type Order, type OrderRow, orderWithEmail } from "../orders/index.ts";
import { providerEventsForOrder, rejectionsForOrder, type Settlement } from "../payments/index.ts";
import { appendAudit } from "./audit.ts";
import { toAdminOrder } from "./service.ts";

interface Deps {
  database: Database;
  settlement: Pick<Settlement, "settle">;
  deals: Pick<DealsService, "releaseStock">;
  /** Sends a changed order to its owner's pages (realtime), as every order change does. */
  publishOrder: (row: OrderRow) => Order;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const orderNotFound = () => new AppError(404, "Order not found", "not_found");

/** A provider event's amount in one line: " (49.99 usd)", " (25 of 50 usd)", or nothing. */
function amounts(summary: Record<string, unknown>): string {
  const { amount, of, currency } = summary;
  if (typeof amount !== "number") return "";
  const unit = typeof currency === "string" ? ` ${currency}` : "";
  return typeof of === "number" ? ` (${amount} of ${of}${unit})` : ` (${amount}${unit})`;
}

/** What the audit log keeps of an order before and after an operator's action. */
const state = (order: Pick<AdminOrder, "payment_status" | "credited_gb">) => ({
  payment_status: order.payment_status,
  credited_gb: order.credited_gb,
});

/** The console's orders: one order with its history, and the two things an operator may do to
 * one — pay a sandbox order, expire a waiting one (docs/product.md#operators). */
export function createAdminOrders({ database, settlement, deals, publishOrder }: Deps) {
  const orders = createOrdersRepository(database);

  async function find(id: string): Promise<AdminOrder> {
    const row = await orderWithEmail(database, id);
    if (!row) throw orderNotFound();
    return toAdminOrder(row.order, row.email);
  }

  /** What happened to the order, oldest first: made, credited, reversed, refused callbacks,
   * operators' actions, and the status it ended in when no row records that. */
  async function events(order: AdminOrder): Promise<AdminOrderEvent[]> {
    const id = order.order_id;
    const [ledger, rejections, audit, providerEvents] = await Promise.all([
      ledgerForOrder(database, order.user_id, id),
      rejectionsForOrder(database, id),
      database.query<{
        actor: string;
        action: string;
        before: unknown;
        after: unknown;
        note: string | null;
        created_at: Date;
      }>(
        `SELECT actor, action, before, after, note, created_at FROM admin_audit_log
          WHERE subject_type = 'order' AND subject_id = $1`,
        [id],
      ),
      providerEventsForOrder(database, id),
    ]);
    const list: AdminOrderEvent[] = [
      {
        at: order.created_at,
        kind: "created",
        summary: `Order made: ${order.amount_usd} USD for ${order.gb} GB`,
        detail: null,
      },
    ];
    for (const entry of ledger) {
      const gb = bytesToGb(Math.abs(Number(entry.delta_bytes)));
      const credited = entry.kind === "purchase";
      list.push({
        at: iso(entry.created_at),
        kind: credited ? "credited" : "reversed",
        summary: credited
          ? `${gb} GB credited`
          : `${entry.kind === "refund" ? "Refund" : "Chargeback"}: ${gb} GB taken back`,
        detail: {
          kind: entry.kind,
          reference: entry.reference,
          delta_bytes: Number(entry.delta_bytes),
          note: entry.note,
        },
      });
    }
    for (const rejection of rejections) {
      list.push({
        at: iso(rejection.created_at),
        kind: "rejected",
        summary: `${rejection.provider} callback refused: ${rejection.reason}`,
        detail: { provider: rejection.provider, reference: rejection.reference, reason: rejection.reason },
      });
    }
    for (const event of providerEvents) {
      list.push({
        at: iso(event.received_at),
        kind: "provider_event",
        summary: `${event.provider} ${event.event_type}: ${event.outcome.replaceAll("_", " ")}${amounts(event.summary)}`,
        detail: {
          provider: event.provider,
          event_type: event.event_type,
          reference: event.provider_reference,
          outcome: event.outcome,
          ...event.summary,
        },
      });
    }
    for (const row of audit) {
      list.push({
        at: iso(row.created_at),
        kind: "operator",
        summary: `${row.action} by ${row.actor}`,
        detail: {
          actor: row.actor,
          action: row.action,
          before: row.before,
          after: row.after,
          note: row.note,
        },
      });
    }
    if (order.paid_at && !ledger.some((entry) => entry.kind === "purchase")) {
      list.push({ at: order.paid_at, kind: "status", summary: "Marked paid", detail: null });
    }
    if (["expired", "failed", "cancelled"].includes(order.payment_status)) {
      list.push({
        at: order.updated_at,
        kind: "status",
        summary: `Status: ${order.payment_status}`,
        detail: null,
      });
    }
    return list.sort((a, b) => a.at.localeCompare(b.at));
  }

  return {
    async detail(id: string) {
      const order = await find(id);
      return { ...order, events: await events(order) };
    },

    /**
     * A sandbox order that is still waiting, paid in full through the settlement — the one
     * place money becomes data, so two concurrent calls credit it once: the second finds it
     * paid and gets 409.
     */
    async markPaid(actor: string, id: string, note?: string): Promise<AdminOrder> {
      const before = await find(id);
      if (before.provider !== "sandbox") {
        throw new AppError(409, "Only a sandbox order can be marked paid.", "not_sandbox");
      }
      if (before.payment_status !== "waiting") {
        throw new AppError(
          409,
          `Only a waiting order can be marked paid; this one is ${before.payment_status}.`,
          "not_waiting",
        );
      }
      // The audit row is written in the crediting transaction: it exists exactly when the order
      // was credited.
      const changed = await settlement.settle(
        id,
        { status: "paid", payinHash: "DUMMY_TX_ID" },
        {
          changed: (tx, row) =>
            appendAudit(tx, {
              actor,
              action: "order.mark_paid",
              subjectType: "order",
              subjectId: id,
              before: state(before),
              after: state(toAdminOrder(row, before.email)),
              note: note ?? null,
            }),
        },
      );
      if (!changed) throw new AppError(409, "This order was paid meanwhile.", "not_waiting");
      return find(id);
    },

    /** waiting → expired (the orders module's move), with its audit row in the same transaction
     * (a payment being credited holds the row lock: this then finds it paid and answers 409). */
    async expire(actor: string, id: string, note?: string): Promise<AdminOrder> {
      const before = await find(id);
      const expired = await orders.transaction(async (tx) => {
        const row = await orders.closeOpen(tx, id, "expired");
        if (!row) return null;
        const after = toAdminOrder(row, before.email);
        await appendAudit(tx, {
          actor,
          action: "order.expire",
          subjectType: "order",
          subjectId: id,
          before: state(before),
          after: state(after),
          note: note ?? null,
        });
        return row;
      });
      if (!expired) {
        const current = await find(id);
        throw new AppError(
          409,
          `Only a waiting order can be expired; this one is ${current.payment_status}.`,
          "not_waiting",
        );
      }
      publishOrder(expired);
      if (expired.dealId) await deals.releaseStock();
      return toAdminOrder(expired, before.email);
    },
  };
}
