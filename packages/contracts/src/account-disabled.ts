/** How every answer to a disabled account begins: the dashboard recognises it by this and shows
 * its full-page notice instead of the page. Kept apart from the zod shapes: the dashboard's entry
 * chunk imports it, and a module with schemas would bring zod into the first visit. */
export const ACCOUNT_DISABLED = "This account is disabled.";

/** The whole answer: it names whom to write to, since the account itself can no longer do anything. */
export const accountDisabledMessage = (contact: string) =>
  `${ACCOUNT_DISABLED} Contact support at ${contact}`;
