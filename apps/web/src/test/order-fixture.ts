import type { Order as ContractOrder, HistoryEntry, HistoryPage } from "@bytetoll/contracts";
import type { Order, TransactionPage } from "../features/orders/api/order.ts";
import { TEST_USER } from "./api-stub.ts";

/** An order as decision 003 shapes it: a fresh 5 GB USDC order on Solana, unpaid. */
export function orderFixture(overrides: Partial<Order> = {}): Order {
  return {
    order_id: "ord_test_1",
    user_id: TEST_USER.id,
    created_at: new Date(2026, 10, 21, 14, 30).toISOString(),
    updated_at: new Date(2026, 10, 21, 14, 30).toISOString(),
    expires_at: new Date(2026, 10, 21, 15, 30).toISOString(),
    paid_at: null,
    note: null,
    method: "crypto",
    network_type: "solana",
    amount_usd: 15,
    gb: 5,
    payment_status: "waiting",
    provider: "sandbox",
    pay_address: "So1anaSandboxPayAddress111111111111111111111",
    qr_code: "data:image/png;base64,iVBORw0KGgo=",
    price_amount: 15,
    payment_token: "USDC (Solana)",
    payin_hash: null,
    transaction_url: null,
    balance_gb_after: null,
    stripe_redirect_url: null,
    deal_id: null,
    quantity: null,
    origin: "checkout",
    ...overrides,
  };
}

/** GET /transactions page envelope for `orders` as page `page` of `total`. */
export function pageOf(orders: Order[], page = 1, total = orders.length): TransactionPage {
  const perPage = 10;
  const from = orders.length === 0 ? null : (page - 1) * perPage + 1;
  return {
    success: true,
    data: orders,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    per_page: perPage,
    total,
    from,
    to: from === null ? null : from + orders.length - 1,
  };
}

/** An order as a GET /history row. The fixture's status is the page's widened one; these
 * fixtures only use the contract's. */
export const historyEntryOf = (order: Order): HistoryEntry => ({
  kind: "order",
  id: `order:${order.order_id}`,
  created_at: order.created_at,
  order: order as ContractOrder,
});

/** GET /history page envelope: `entries` (orders are made rows) as page `page` of `total`. */
export function historyOf(
  entries: Array<HistoryEntry | Order>,
  page = 1,
  total = entries.length,
): HistoryPage {
  const { data: _orders, ...envelope } = pageOf([], page, total);
  const from = entries.length === 0 ? null : (page - 1) * envelope.per_page + 1;
  return {
    ...envelope,
    data: entries.map((entry) => ("kind" in entry ? entry : historyEntryOf(entry))),
    from,
    to: from === null ? null : from + entries.length - 1,
  };
}
