import { type ParsedProxyUsername, parseProxyUsername } from "@bytetoll/contracts";
import { Refusal } from "@bytetoll/egress";

export interface BasicCredentials {
  username: string;
  password: string;
}

/** No username the server hands out holds a control character (a NUL cannot even be stored in
 * PostgreSQL text): such a name is a wrong credential, decided before any lookup. */
export function isPlausibleUsername(username: string): boolean {
  // Control characters (Unicode category Cc): U+0000–U+001F and U+007F–U+009F. A loop over char
  // codes: the /\p{Cc}/u regex it replaces cost as much as the rest of the credential check.
  for (let i = 0; i < username.length; i++) {
    const code = username.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return false;
  }
  return true;
}

/** `Proxy-Authorization: Basic base64(user:pass)`; anything else is treated as absent. */
export function parseProxyAuthorization(header: string | undefined): BasicCredentials | null {
  if (!header) return null;
  const match = /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1] as string, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The username's options (the grammar is packages/contracts' proxy-username.ts). */
export type UsernameOptions = ParsedProxyUsername;

/** `{username}[-country-CC][-city-NAME][-session-ID][-sesstime-MINUTES][-routing-smart]`, in any
 * order; an unknown or malformed option is a 407 bad_username_option naming it. */
export function parseUsernameOptions(username: string): UsernameOptions {
  const parsed = parseProxyUsername(username);
  if (!parsed.ok) throw new Refusal("bad_username_option", parsed.message);
  return parsed.value;
}
