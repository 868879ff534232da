import { ROUTING_SMART_SUFFIX, SESSION_ID_LENGTH, SESSION_SUFFIX_PREFIX } from "@bytetoll/contracts";

const ALPHANUMERICS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** docs/product.md#states: a random 8-character alphanumeric sticky-session id. */
export function randomSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SESSION_ID_LENGTH));
  // 256 % 62 leaves a slight bias; irrelevant for a session label that is not a secret.
  return Array.from(bytes, (byte) => ALPHANUMERICS[byte % ALPHANUMERICS.length]).join("");
}

/** An id this page could have generated: exactly 8 letters or digits. */
export function isSessionId(value: string | null): value is string {
  return value !== null && new RegExp(`^[A-Za-z0-9]{${SESSION_ID_LENGTH}}$`).test(value);
}

export interface UsernameOptions {
  /** Set while sticky session is on. */
  sessionId: string | null;
  intelligence: boolean;
}

/** docs/product.md#username-grammar: `{username}[-session-{id}][-routing-smart]`, in that order. */
export function proxyUsername(base: string, options: UsernameOptions): string {
  if (!base) return "";
  const session = options.sessionId ? `${SESSION_SUFFIX_PREFIX}${options.sessionId}` : "";
  return `${base}${session}${options.intelligence ? ROUTING_SMART_SUFFIX : ""}`;
}
