import type { UsagePeriod } from "@bytetoll/contracts";
import { API_BASE_URL } from "../../../lib/env.ts";
import { readUsableToken } from "../../../lib/token-storage.ts";

export const EXPORT_FAILED_MESSAGE = "Could not export usage. Please try again.";

/** The server's file name from Content-Disposition, or a sensible one. */
function filenameOf(response: Response, days: UsagePeriod): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "");
  return match?.[1] ?? `bytetoll-usage-last-${days}-days.csv`;
}

/**
 * Decision 005: the export needs the bearer token, which a plain link cannot send, so it is
 * fetched and handed to the browser as a blob download. No token ever lands in a URL.
 */
export async function downloadUsageExport({
  days,
  subuser,
}: {
  days: UsagePeriod;
  /** A sub-user's id or "main": only those credentials' rows, as the page's filter shows them. */
  subuser?: string;
}): Promise<void> {
  const token = readUsableToken();
  const query = new URLSearchParams({ days: String(days), format: "csv" });
  if (subuser !== undefined) query.set("subuser", subuser);
  const response = await fetch(`${API_BASE_URL}/proxies/usage/export?${query}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: "omit",
  }).catch(() => null);
  if (!response?.ok || !(response.headers.get("content-type") ?? "").startsWith("text/csv")) {
    throw new Error(EXPORT_FAILED_MESSAGE);
  }
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = filenameOf(response, days);
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Revoked on the next tick: the click has started the download by then.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
