import { bytesToGb } from "@bytetoll/contracts";
import { escapeHtml } from "../../lib/html-escape.ts";
import type { MailMessage } from "../../plugins/mail.ts";

/** The Buy Data page (the dashboard). */
export const buyDataLink = (appUrl: string) => `${appUrl}/`;

/** The one e-mail a customer gets when the balance falls below their threshold. */
export function lowBalanceEmail(to: string, balanceBytes: number, appUrl: string): MailMessage {
  const left = `${bytesToGb(balanceBytes)} GB`;
  const link = buyDataLink(appUrl);
  const text = [
    `Your ByteToll balance is low: ${left} of data left.`,
    "",
    "Buy more data to keep your proxy running:",
    link,
    "",
    "You can change or turn off this alert in Profile.",
  ].join("\n");
  const html = `<p>Your ByteToll balance is low: <strong>${escapeHtml(left)}</strong> of data left.</p>
<p><a href="${escapeHtml(link)}">Buy Data</a> to keep your proxy running.</p>
<p>You can change or turn off this alert in Profile.</p>`;
  // No outbox link: that slot is for sign-in links (the dev outbox prints it as one and tests
  // sign in with the newest); this e-mail's link is in its text.
  // A whole sentence about the reader: "ByteToll: 0.05 GB of data left" read, in a list that
  // names the recipient next to it, as data left *to* that address.
  return { to, subject: `You have ${left} of data left`, text, html, link: null };
}
