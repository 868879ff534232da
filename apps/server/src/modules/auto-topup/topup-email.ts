import { escapeHtml } from "../../lib/html-escape.ts";
import type { MailMessage } from "../../plugins/mail.ts";

const usd = (cents: number) =>
  `$${(cents / 100).toLocaleString("en-US", {
    minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
    maximumFractionDigits: 2,
  })}`;

function message(to: string, subject: string, lines: string[], appUrl: string): MailMessage {
  const link = `${appUrl}/`;
  const text = [...lines, "", "Buy Data (auto top-up settings are on its Data Balance card):", link].join(
    "\n",
  );
  const html = `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n")}
<p><a href="${escapeHtml(link)}">Buy Data</a>: the auto top-up settings are on its Data Balance card.</p>`;
  // No outbox link: that slot is for sign-in links (tests sign in with the newest one).
  return { to, subject, text, html, link: null };
}

/** A top-up's charge to the saved card failed: why, and whether auto top-up is now off. */
export function topupFailedEmail(
  to: string,
  failure: { amountCents: number; reason: string; turnedOff: boolean },
  appUrl: string,
): MailMessage {
  return message(
    to,
    `Your auto top-up of ${usd(failure.amountCents)} failed`,
    [
      `We could not charge your saved card ${usd(failure.amountCents)} for your automatic top-up: ${failure.reason}`,
      failure.turnedOff
        ? "Auto top-up is now off after 3 failed charges in a row. Add a card that works and turn it on again."
        : "Your balance was not topped up. Check the card, or buy data yourself before your balance runs out.",
    ],
    appUrl,
  );
}

/** A top-up was due but would have passed the monthly cap: nothing was charged. */
export function monthlyCapEmail(to: string, capCents: number, appUrl: string): MailMessage {
  return message(
    to,
    "Auto top-up reached its monthly cap",
    [
      `Your balance fell below your auto top-up threshold, but another top-up would pass your monthly cap of ${usd(capCents)}, so nothing was charged.`,
      "Raise the cap, or buy data yourself before your balance runs out.",
    ],
    appUrl,
  );
}
