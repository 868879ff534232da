import { formatProxyUsername, SESSION_ID_LENGTH } from "@bytetoll/contracts";

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
  /** ISO 3166-1 alpha-2 code of the exit country; null: any. */
  country?: string | null;
  /** The exit city as the exit's provider spells it (`new_york`); null: any. */
  city?: string | null;
  /** Minutes a sticky session keeps its exit after its last use (the gateway's default: 10). */
  sessionMinutes?: number;
}

/** docs/product.md#username-grammar, built by the one definition in @bytetoll/contracts:
 * `{username}[-country-CC][-city-NAME][-session-ID][-sesstime-MINUTES][-routing-smart]`. */
export function proxyUsername(base: string, options: UsernameOptions): string {
  if (!base) return "";
  return formatProxyUsername(base, {
    country: options.country ?? undefined,
    city: options.city ?? undefined,
    sessionId: options.sessionId ?? undefined,
    sessionMinutes: options.sessionId ? options.sessionMinutes : undefined,
    smart: options.intelligence,
  });
}
