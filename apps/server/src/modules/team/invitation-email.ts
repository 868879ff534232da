import type { MemberRole } from "@bytetoll/contracts";
import { escapeHtml } from "../../lib/html-escape.ts";
import type { MailMessage } from "../../plugins/mail.ts";

/** Tells an invited person whose account they can now open and how: the usual sign-in. */
export function invitationEmail(
  to: string,
  accountEmail: string,
  role: MemberRole,
  appUrl: string,
): MailMessage {
  const text = [
    `${accountEmail} added you to their ByteToll account as ${role}.`,
    "",
    `Sign in at ${appUrl}/login with this address; the account switcher at the top opens their account.`,
    "If you do not know them, ignore this e-mail: nothing happens until you sign in.",
  ].join("\n");
  const html = `<p>${escapeHtml(accountEmail)} added you to their ByteToll account as ${escapeHtml(role)}.</p>
<p>Sign in at <a href="${escapeHtml(appUrl)}/login">${escapeHtml(appUrl)}/login</a> with this address; the account switcher at the top opens their account.</p>
<p>If you do not know them, ignore this e-mail: nothing happens until you sign in.</p>`;
  return { to, subject: "You were added to a ByteToll account", text, html, link: null };
}
