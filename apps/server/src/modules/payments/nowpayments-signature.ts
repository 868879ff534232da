import { createHmac, timingSafeEqual } from "node:crypto";

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** NOWPayments' IPN signature: HMAC-SHA512 (hex) of the JSON body with keys sorted at every level. */
export function signNowPaymentsBody(body: unknown, secret: string): string {
  return createHmac("sha512", secret)
    .update(JSON.stringify(sortKeys(body)))
    .digest("hex");
}

export function verifyNowPaymentsSignature(body: unknown, signature: unknown, secret: string): boolean {
  if (typeof signature !== "string" || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  if (!body || typeof body !== "object") return false;
  const expected = Buffer.from(signNowPaymentsBody(body, secret), "hex");
  return timingSafeEqual(expected, Buffer.from(signature, "hex"));
}
