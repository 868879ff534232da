import { z } from "zod";

export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_DOMAIN_MAX_LENGTH = 253;

/** SPEC §5: {local}@{domain}, at most 254 characters, no "..", domain at most 253. */
export function isValidEmail(value: string): boolean {
  if (value.length === 0 || value.length > EMAIL_MAX_LENGTH) return false;
  if (value.includes("..")) return false;
  const at = value.lastIndexOf("@");
  if (at <= 0 || at === value.length - 1) return false;
  const domain = value.slice(at + 1);
  if (domain.length > EMAIL_DOMAIN_MAX_LENGTH) return false;
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

export const emailSchema = z
  .string({ error: "Email is required for login." })
  .trim()
  .min(1, "Email is required for login.")
  .refine(isValidEmail, "Please enter a valid email address.");
