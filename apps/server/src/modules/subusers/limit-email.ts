import { BYTES_PER_GB, formatDataAmount, type SubuserLimitPeriod } from "@bytetoll/contracts";
import { escapeHtml } from "../../lib/html-escape.ts";
import type { MailMessage } from "../../plugins/mail.ts";

const PERIOD_WORDS: Record<SubuserLimitPeriod, string> = {
  day: "today (it restarts at 00:00 UTC)",
  week: "this week (it restarts on Monday, 00:00 UTC)",
  month: "this month (it restarts on the 1st, 00:00 UTC)",
  total: "in total",
};

/** The e-mail an owner gets once per period when a sub-user reaches its limit. */
export function subuserLimitEmail(
  to: string,
  subuser: { label: string; limitBytes: number; period: SubuserLimitPeriod },
  appUrl: string,
): MailMessage {
  // Written as the Sub-users page shows it ("10 MB", "2.5 GB").
  const limit = formatDataAmount(subuser.limitBytes / BYTES_PER_GB);
  const link = `${appUrl}/subusers`;
  const when = PERIOD_WORDS[subuser.period];
  const text = [
    `Your sub-user "${subuser.label}" has used its limit of ${limit} ${when}.`,
    "Its proxy requests are refused (402 subuser_limit_reached) until the limit restarts or you raise it.",
    "",
    "Change its limit on the Sub-users page:",
    link,
  ].join("\n");
  const html = `<p>Your sub-user <strong>${escapeHtml(subuser.label)}</strong> has used its limit of ${escapeHtml(limit)} ${escapeHtml(when)}.</p>
<p>Its proxy requests are refused (402 subuser_limit_reached) until the limit restarts or you raise it.</p>
<p><a href="${escapeHtml(link)}">Sub-users</a></p>`;
  return { to, subject: `Sub-user ${subuser.label} reached its ${limit} limit`, text, html, link: null };
}
