import { escapeHtml } from "../../lib/html-escape.ts";

/** Inline CSS only: the CSP allows inline styles ('unsafe-inline') but no inline scripts. */
const STYLE = `body{font-family:system-ui,sans-serif;line-height:1.5;max-width:48rem;margin:3rem auto;padding:0 1rem;color:#0f172a}
pre{background:#f1f5f9;border:1px solid #e2e8f0;border-radius:.5rem;padding:1rem;overflow-x:auto;font-size:.875rem;line-height:1.4}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
a{color:#4f46e5}
table{border-collapse:collapse}
td,th{text-align:left;vertical-align:top;padding:.25rem .75rem .25rem 0;border-bottom:1px solid #e2e8f0}
td code{overflow-wrap:anywhere}
.table-scroll{overflow-x:auto}
pre:focus-visible,.table-scroll:focus-visible{outline:2px solid #4f46e5;outline-offset:2px}`;

/**
 * The frame of the few HTML pages the server answers itself (legal placeholders, the integration
 * guide). `title` is text; `body` is HTML the caller has already escaped where needed. The icon is
 * the SPA's own (apps/web/public/favicon.svg, served from the build on this origin).
 */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<title>${escapeHtml(title)} · ByteToll</title><style>${STYLE}</style></head>
<body>
${body}
</body></html>`;
}
