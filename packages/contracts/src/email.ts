// Kept free of zod: the login page imports this, and it must stay light (issue 2).

export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_DOMAIN_MAX_LENGTH = 253;

/** Control characters (NUL above all) are never part of an address and break storage. */
export function hasControlCharacters(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  return /[\u0000-\u001f\u007f]/.test(value);
}

/** docs/product.md#validation: {local}@{domain}, at most 254 characters, no "..", domain at most 253. */
export function isValidEmail(value: string): boolean {
  if (value.length === 0 || value.length > EMAIL_MAX_LENGTH) return false;
  if (value.includes("..")) return false;
  if (hasControlCharacters(value)) return false;
  const at = value.lastIndexOf("@");
  if (at <= 0 || at === value.length - 1) return false;
  const domain = value.slice(at + 1);
  if (domain.length > EMAIL_DOMAIN_MAX_LENGTH) return false;
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

/** The address as accounts are keyed by it: trimmed, lower-cased, and without the trailing dot a
 * fully qualified domain may carry (`a@x.com.` is the mailbox `a@x.com`). */
export function normalizeEmail(value: string): string {
  const trimmed = value.trim().toLowerCase();
  return trimmed.endsWith(".") ? trimmed.slice(0, -1) : trimmed;
}

/**
 * What the per-e-mail login-link limit counts by: the normalised address with any plus tag
 * dropped (`a+1@x.com` and `a+2@x.com` reach the same mailbox, so they share one limit).
 */
export function loginLimitKey(email: string): string {
  const normalized = normalizeEmail(email);
  const at = normalized.lastIndexOf("@");
  const plus = normalized.indexOf("+");
  if (plus <= 0 || plus > at) return normalized;
  return normalized.slice(0, plus) + normalized.slice(at);
}
