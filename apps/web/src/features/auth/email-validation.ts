import { isValidEmail } from "@bytetoll/contracts";

/** docs/product.md#validation form messages. */
export const EMAIL_REQUIRED_MESSAGE = "Email is required.";
export const EMAIL_INVALID_MESSAGE = "Please enter a valid email address.";
/** docs/product.md#validation: the format message waits until typing has stopped this long. */
export const EMAIL_VALIDATION_DELAY_MS = 500;

/** The message the e-mail field deserves, or null when it is acceptable. */
export function emailProblem(email: string): string | null {
  const trimmed = email.trim();
  if (trimmed.length === 0) return EMAIL_REQUIRED_MESSAGE;
  return isValidEmail(trimmed) ? null : EMAIL_INVALID_MESSAGE;
}
