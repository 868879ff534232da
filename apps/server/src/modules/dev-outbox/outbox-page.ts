import { escapeHtml } from "../../lib/html-escape.ts";
import type { OutboxRow } from "./repository.ts";

/** The dev outbox as a plain page: no scripts, every stored value escaped. */
export function renderOutboxPage(messages: OutboxRow[]): string {
  const items = messages
    .map((message) => {
      const link = message.link
        ? `<p><a href="${escapeHtml(message.link)}">${escapeHtml(message.link)}</a></p>`
        : "";
      return `<li><p><strong>${escapeHtml(message.subject)}</strong> to ${escapeHtml(message.to)}
<small>${escapeHtml(message.created_at)}</small></p>${link}<pre>${escapeHtml(message.text)}</pre></li>`;
    })
    .join("\n");
  const body = messages.length > 0 ? `<ol>${items}</ol>` : "<p>No messages yet.</p>";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev outbox · ByteToll</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
li{margin-bottom:1.5rem}pre{white-space:pre-wrap;background:#f4f4f5;padding:.5rem}</style></head>
<body><h1>Dev outbox</h1><p>E-mails this server would have sent (no SMTP_URL set). Newest first.</p>
${body}</body></html>`;
}
