import { escapeHtml } from "../../lib/html-escape.ts";
import { SANDBOX_CARDS } from "./card-vault.ts";

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f4f5;display:flex;justify-content:center;padding:3rem 1rem;margin:0}
main{background:#fff;border-radius:12px;padding:2rem;max-width:24rem;width:100%;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin:0 0 .5rem}p{color:#52525b}
button{width:100%;padding:.75rem;border:0;border-radius:8px;background:#18181b;color:#fff;font-size:1rem;cursor:pointer;margin-top:.75rem}
button.secondary{background:#fff;color:#18181b;border:1px solid #d4d4d8}
a{display:block;text-align:center;margin-top:1rem;color:#52525b}
</style></head><body><main>${body}</main></body></html>`;

/** The sandbox stand-in for the card page of Checkout in setup mode: saves a test card. */
export const cardSetupPage = {
  form(setupId: string, back: string): string {
    const action = `/dev/card-setup/${encodeURIComponent(setupId)}`;
    return page(
      "Sandbox: save a card",
      `<h1>Save a card for auto top-up</h1>
<p>No card is stored: this page stands in for the card provider while no STRIPE_SECRET_KEY is set. Choose a test card.</p>
<form method="post" action="${action}?card=pays"><button type="submit">Save test card •••• ${SANDBOX_CARDS.pays.last4} (pays)</button></form>
<form method="post" action="${action}?card=declines"><button type="submit" class="secondary">Save test card •••• ${SANDBOX_CARDS.declines.last4} (declined)</button></form>
<a href="${escapeHtml(back)}">Back to Buy Data</a>`,
    );
  },
  missing(): string {
    return page(
      "Card page not found",
      "<h1>Card page not found</h1><p>This card page is no longer open.</p>",
    );
  },
};
