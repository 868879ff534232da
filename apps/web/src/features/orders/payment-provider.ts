import type { Order } from "./api/order.ts";

/** How each payment provider the server can be configured with is named to a customer. */
const PROVIDER_NAMES: Record<Order["provider"], string> = {
  sandbox: "Sandbox (test mode, no money moves)",
  nowpayments: "NOWPayments",
  stripe: "Stripe",
};

/** The provider that opened the order's payment, by name ("Powered by …", the receipt). */
export function paymentProviderName(order: Pick<Order, "provider">): string {
  return PROVIDER_NAMES[order.provider];
}
