/** The printable receipt of a paid order (docs/product.md#order-page). */
export const receiptPath = (orderId: string) => `/orders/${encodeURIComponent(orderId)}/receipt`;
