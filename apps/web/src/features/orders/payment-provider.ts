import type { Order } from "./api/order.ts";

/** How each payment provider the server can be configured with is named to a customer. */
const PROVIDER_NAMES: Record<string, string> = {
  sandbox: "the sandbox payment provider",
  nowpayments: "NOWPayments",
  stripe: "Stripe",
};

/** The provider that opened the order's payment, by name, or null when the order does not say. */
export function paymentProviderName(order: Order): string | null {
  const provider = (order as Order & { provider?: unknown }).provider;
  return typeof provider === "string" ? (PROVIDER_NAMES[provider] ?? null) : null;
}
