import { BYTES_PER_GB } from "@bytetoll/contracts";
import { escapeHtml } from "../../lib/html-escape.ts";
import type { OrderRow } from "../orders/index.ts";

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f4f5;display:flex;justify-content:center;padding:3rem 1rem;margin:0}
main{background:#fff;border-radius:12px;padding:2rem;max-width:24rem;width:100%;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin:0 0 .5rem}p{color:#52525b}
.total{font-size:2rem;font-weight:600;color:#18181b;margin:1rem 0}
button{width:100%;padding:.75rem;border:0;border-radius:8px;background:#18181b;color:#fff;font-size:1rem;cursor:pointer}
a{display:block;text-align:center;margin-top:1rem;color:#52525b}
</style></head><body><main>${body}</main></body></html>`;

/** The sandbox stand-in for a hosted card page: shows the amount, "Pay" marks the order paid. */
export const cardCheckoutPage = {
  form(row: OrderRow, appUrl: string): string {
    const back = `${appUrl}/checkout?order_id=${encodeURIComponent(row.id)}`;
    // Thousands separated as everywhere else in the product ("$1,500.00", "1,000 GB").
    const amount = (Number(row.amountCents) / 100).toLocaleString("en-US", {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    const gb = (Number(row.bytes) / BYTES_PER_GB).toLocaleString("en-US", { maximumFractionDigits: 2 });
    const payable = ["awaiting_method", "waiting", "expired"].includes(row.paymentStatus);
    return page(
      "Sandbox card payment",
      `<h1>Sandbox card payment</h1>
<p>No card is charged: this page stands in for the card provider while no STRIPE_SECRET_KEY is set.</p>
<div class="total">$${escapeHtml(amount)}</div>
<p>${escapeHtml(gb)} GB of proxy data · order ${escapeHtml(row.id)}</p>
${
  payable
    ? `<form method="post" action="/dev/card-checkout/${encodeURIComponent(row.id)}/pay"><button type="submit">Pay $${escapeHtml(amount)}</button></form>`
    : `<p>This order is ${escapeHtml(row.paymentStatus.replace("_", " "))}.</p>`
}
<a href="${escapeHtml(back)}">Back to the order</a>`,
    );
  },
  missing(): string {
    return page("Order not found", "<h1>Order not found</h1><p>There is no sandbox card order here.</p>");
  },
};
