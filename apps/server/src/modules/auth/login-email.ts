import { escapeHtml } from "../../lib/html-escape.ts";
import type { MailMessage } from "../../plugins/mail.ts";

/** `{APP_URL}/magic/auth[/order/{orderId}]?magic_credential={token}` (docs/product.md#sign-in). */
export function loginLink(appUrl: string, token: string, orderId: string | null): string {
  const orderPath = orderId ? `/order/${encodeURIComponent(orderId)}` : "";
  return `${appUrl}/magic/auth${orderPath}?magic_credential=${encodeURIComponent(token)}`;
}

export function loginEmail(to: string, link: string, validMinutes: number): MailMessage {
  const text = [
    "Sign in to ByteToll with this link:",
    "",
    link,
    "",
    `The link works once and expires in ${validMinutes} minutes.`,
    "If you did not ask for it, ignore this e-mail.",
  ].join("\n");
  const safeLink = escapeHtml(link);
  const html = `<p>Sign in to ByteToll with this link:</p>
<p><a href="${safeLink}">Sign in to ByteToll</a></p>
<p>The link works once and expires in ${validMinutes} minutes. If you did not ask for it, ignore this e-mail.</p>`;
  return { to, subject: "Your ByteToll login link", text, html, link };
}
