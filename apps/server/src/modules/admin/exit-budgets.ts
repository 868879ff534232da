import { CONSOLE_EXITS_SQL } from "@bytetoll/egress";
import { escapeHtml } from "../../lib/html-escape.ts";
import { createPerKeyThrottle } from "../../lib/per-key-throttle.ts";
import type { App } from "../../types.ts";

/** Budgets are checked at most this often (a usage flush announces the accounts it debited). */
const CHECK_INTERVAL_MS = 1_000;

interface Reached {
  id: string;
  name: string;
  monthly_budget_bytes: string;
  month_bytes: string;
}

/**
 * The operators' e-mail when a console exit has carried its monthly budget: checked after usage
 * is committed (the change feed's account announcements of a flush). The conditional UPDATE of
 * budget_mail_month lets exactly one API instance send it, once per exit and calendar month (UTC);
 * the gateways stop giving the exit new connections on their own (decision 042).
 */
export function watchExitBudgets(app: App): void {
  const operators = app.config.ADMIN_EMAILS;
  if (operators.length === 0) return;
  const check = async () => {
    const reached = await app.database.query<Reached>(
      `UPDATE upstreams u SET budget_mail_month = date_trunc('month', now() AT TIME ZONE 'UTC')::date
         FROM (${CONSOLE_EXITS_SQL}) e
        WHERE e.id = u.id AND u.monthly_budget_bytes IS NOT NULL AND e.month_bytes >= u.monthly_budget_bytes
          AND u.budget_mail_month IS DISTINCT FROM date_trunc('month', now() AT TIME ZONE 'UTC')::date
        RETURNING u.id, u.name, u.monthly_budget_bytes::text, e.month_bytes::text`,
    );
    for (const exit of reached) {
      const gb = (bytes: string) =>
        (Number(bytes) / 1e9).toLocaleString("en-US", { maximumFractionDigits: 6 });
      const text = `The exit "${exit.name}" has carried ${gb(exit.month_bytes)} GB this month, its budget of ${gb(exit.monthly_budget_bytes)} GB. It takes no new connections until next month or until its budget is raised; its pool's other exits carry the traffic.`;
      const link = `${app.config.APP_URL}/admin/exits`;
      for (const to of operators) {
        await app.mailer
          .send({
            to,
            subject: `Exit ${exit.name} reached its monthly budget`,
            text: `${text}\n\n${link}\n`,
            html: `<p>${escapeHtml(text)}</p><p><a href="${escapeHtml(link)}">Exits</a></p>`,
            link,
          })
          .catch((error: unknown) =>
            app.log.warn({ err: error, upstream: exit.id }, "budget e-mail not sent"),
          );
      }
    }
  };
  const throttle = createPerKeyThrottle(CHECK_INTERVAL_MS, () =>
    check().catch((error: unknown) => app.log.warn({ err: error }, "exit budgets not checked")),
  );
  app.changeFeed.onChange((payload) => {
    // A flush announces the accounts it debited ("user:<id>"); null: the feed is back after an
    // outage. A budget lowered below what was carried is noticed at the next flush.
    if (payload === null || payload.startsWith("user:")) throttle.trigger("budgets");
  });
  app.addHook("preClose", () => throttle.stop());
}
