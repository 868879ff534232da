import { bytesToGb } from "@bytetoll/contracts";
import type { OrderExpiry } from "./expiry.ts";
import { isOverdue, type OrderRow, toOrderView } from "./order-view.ts";
import type { HistoryRow, OrdersRepository } from "./repository.ts";
import type { HistoryEntry, HistoryPage, HistoryQuery, LedgerHistoryEntry } from "./schemas.ts";

interface Deps {
  repository: Pick<OrdersRepository, "historyPage" | "findMany">;
  expiry: Pick<OrderExpiry, "expireForUser">;
}

const ORDER_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The order a refund, chargeback or deposit belongs to, from its reference (`order:<id>…`,
 * `deal-deposit:<id>`); a free GB or an adjustment belongs to none. */
function referencedOrder(kind: string, reference: string | null): string | null {
  if (kind === "bonus" || kind === "adjustment") return null;
  return reference?.match(ORDER_ID)?.[0] ?? null;
}

function ledgerEntry(row: HistoryRow): LedgerHistoryEntry {
  return {
    kind: row.kind as LedgerHistoryEntry["kind"],
    id: `ledger:${row.entryId}`,
    created_at: row.createdAt.toISOString(),
    gb: bytesToGb(row.deltaBytes ?? 0),
    note: row.note,
    order_id: referencedOrder(row.kind, row.reference),
  };
}

/** GET /history (docs/product.md#transaction-history): the caller's orders and the balance changes
 * that are not orders (free GB, operator adjustments, deposits credited, refunds), one list. */
export function createOrderHistory({ repository, expiry }: Deps) {
  async function read(userId: string, query: HistoryQuery) {
    const { rows, total } = await repository.historyPage(userId, {
      limit: query.per_page,
      offset: (query.page - 1) * query.per_page,
    });
    const ids = rows.flatMap((row) => (row.orderId ? [row.orderId] : []));
    const orders = new Map((await repository.findMany(ids)).map((row) => [row.id, row]));
    return { rows, total, orders };
  }

  return {
    async history(userId: string, query: HistoryQuery): Promise<HistoryPage> {
      let page = await read(userId, query);
      // As for GET /transactions: a page showing an overdue order shows it expired.
      const now = Date.now();
      const overdue = [...page.orders.values()].some((row) => isOverdue(row, now));
      if (overdue && (await expiry.expireForUser(userId))) page = await read(userId, query);
      const data = page.rows.flatMap((row): HistoryEntry[] => {
        if (!row.orderId) return [ledgerEntry(row)];
        const order: OrderRow | undefined = page.orders.get(row.orderId);
        // Deleted between the two reads (its account is going): not shown.
        if (!order) return [];
        const view = toOrderView(order);
        return [{ kind: "order", id: `order:${order.id}`, created_at: view.created_at, order: view }];
      });
      const from = page.rows.length > 0 ? (query.page - 1) * query.per_page + 1 : null;
      return {
        success: true,
        data,
        current_page: query.page,
        last_page: Math.max(1, Math.ceil(page.total / query.per_page)),
        per_page: query.per_page,
        total: page.total,
        from,
        to: from === null ? null : from + page.rows.length - 1,
      };
    },
  };
}
