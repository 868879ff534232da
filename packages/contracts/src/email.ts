// Kept free of zod: the login page imports this, and it must stay light (issue 2).

export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_DOMAIN_MAX_LENGTH = 253;

/** Control characters (NUL above all) are never part of an address and break storage. */
export function hasControlCharacters(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  return /[\u0000-\u001f\u007f]/.test(value);
}

/** SPEC §5: {local}@{domain}, at most 254 characters, no "..", domain at most 253. */
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
