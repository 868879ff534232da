import type { ChangeCache } from "../../lib/change-cache.ts";
import type { OrderExpiry } from "./expiry.ts";
import { isOrderId, orderNotFound } from "./order-errors.ts";
import { isOverdue, type OrderRow, toOrderView } from "./order-view.ts";
import type { OrdersRepository } from "./repository.ts";
import type { ListOrdersQuery, Order, OrderPage } from "./schemas.ts";

interface Deps {
  repository: OrdersRepository;
  expiry: OrderExpiry;
  /** GET /transactions pages, dropped by the change feed when an order of theirs changes (the
   * server's; the CLI reads uncached). */
  pages?: ChangeCache<OrderPage>;
}

const isWaiting = (order: Order) => order.payment_status === "waiting";

/** Reading orders: one of the caller's, a page of them, or any by id for the payment callbacks. */
export function createOrderReads({ repository, expiry, pages }: Deps) {
  function listRows(userId: string, query: ListOrdersQuery) {
    return repository.listForUser(userId, {
      limit: query.per_page,
      offset: (query.page - 1) * query.per_page,
      method: query.source,
    });
  }

  async function listPage(userId: string, query: ListOrdersQuery): Promise<OrderPage> {
    let { rows, total } = await listRows(userId, query);
    // Expire only when this page shows an overdue order: a list read stays a single query.
    const now = Date.now();
    if (rows.some((row) => isOverdue(row, now)) && (await expiry.expireForUser(userId))) {
      ({ rows, total } = await listRows(userId, query));
    }
    const from = rows.length > 0 ? (query.page - 1) * query.per_page + 1 : null;
    return {
      success: true,
      data: rows.map(toOrderView),
      current_page: query.page,
      last_page: Math.max(1, Math.ceil(total / query.per_page)),
      per_page: query.per_page,
      total,
      from,
      to: from === null ? null : from + rows.length - 1,
    };
  }

  return {
    /** The caller's order, or 404 for anyone else's (and for ids that are not order ids). */
    async owned(userId: string, orderId: string): Promise<OrderRow> {
      if (!isOrderId(orderId)) throw orderNotFound();
      const row = await repository.findForUser(userId, orderId);
      if (!row) throw orderNotFound();
      return row;
    },

    async get(userId: string, orderId: string): Promise<Order> {
      const row = await this.owned(userId, orderId);
      return isOverdue(row) ? expiry.expireRead(row) : toOrderView(row);
    },

    list(userId: string, query: ListOrdersQuery): Promise<OrderPage> {
      if (!pages) return listPage(userId, query);
      return pages.get(
        `orders:${userId}`,
        `${userId}:${query.page}:${query.per_page}:${query.source ?? ""}`,
        () => listPage(userId, query),
        // A page showing a waiting order is read again once that order is due to expire.
        {
          until: (page) =>
            Math.min(...page.data.filter(isWaiting).map((order) => Date.parse(order.expires_at))),
        },
      );
    },

    async find(orderId: string): Promise<OrderRow | undefined> {
      return isOrderId(orderId) ? repository.find(orderId) : undefined;
    },

    findByProviderPayment(provider: string, paymentId: string): Promise<OrderRow | undefined> {
      return repository.findByProviderPayment(provider, paymentId);
    },

    findByProviderSession(provider: string, sessionId: string): Promise<OrderRow | undefined> {
      return repository.findByProviderSession(provider, sessionId);
    },
  };
}

export type OrderReads = ReturnType<typeof createOrderReads>;
