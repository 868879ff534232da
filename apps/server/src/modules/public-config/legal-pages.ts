import { escapeHtml } from "../../lib/html-escape.ts";
import type { App } from "../../types.ts";
import { htmlPage } from "./page-shell.ts";

const PAGES = [
  { path: "/terms", title: "Terms of Service", variable: "TERMS_URL" },
  { path: "/privacy", title: "Privacy Policy", variable: "PRIVACY_URL" },
] as const;

/**
 * The footer's Terms and Privacy Policy links point here until the operator sets TERMS_URL /
 * PRIVACY_URL: an honest placeholder instead of the SPA's 404 screen.
 */
export async function legalPlaceholderRoutes(app: App) {
  for (const page of PAGES) {
    if (app.config[page.variable] !== `${app.config.APP_URL}${page.path}`) continue;
    const html = htmlPage(
      page.title,
      `<h1>${escapeHtml(page.title)}</h1><p>The operator of this ByteToll installation has not published this document yet.</p>
<p>Operators: set <code>${page.variable}</code> to its address.</p>`,
    );
    app.get(page.path, { schema: { hide: true } }, async (_request, reply) =>
      reply.type("text/html; charset=utf-8").send(html),
    );
  }
}
