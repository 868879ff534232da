import { createHmac, timingSafeEqual } from "node:crypto";

/** How far a signature's time may be from now before it is refused (an old request replayed). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Whether `body` (the raw request body, as received) carries a valid `ByteToll-Signature`
 * header for `secret`: the HMAC-SHA256 of "t.body" matches (compared in constant time) and `t`
 * is within 5 minutes of now.
 */
export function verifyWebhook(
  body: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  if (typeof header !== "string" || !secret) return false;
  const parts = new Map<string, string>();
  for (const part of header.split(",")) {
    const at = part.indexOf("=");
    if (at > 0) parts.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const t = parts.get("t") ?? "";
  const given = parts.get("v1") ?? "";
  if (!/^\d{1,12}$/.test(t) || !/^[0-9a-f]{64}$/i.test(given)) return false;
  const now = options.now ?? Date.now() / 1000;
  if (Math.abs(now - Number(t)) > (options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) return false;
  const expected = createHmac("sha256", secret).update(`${t}.`).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given, "hex"));
}
