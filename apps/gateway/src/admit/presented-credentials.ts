import { hashSecret } from "@bytetoll/db";
import { Refusal } from "@bytetoll/egress";
import {
  isPlausibleUsername,
  parseProxyAuthorization,
  parseUsernameOptions,
  type UsernameOptions,
} from "./proxy-auth.ts";

/** Credentials as read: the username's options and the password's hash. */
export interface Presented {
  options: UsernameOptions;
  passwordHash: string;
}

/** How many credentials are remembered as read; beyond it the memory starts over, so a client
 * sending endless distinct credentials cannot grow it. */
const MAX_REMEMBERED = 1_000;

export const wrongCredentials = () =>
  new Refusal("bad_credentials", "The proxy username or password is wrong");

/**
 * Credentials read once while they keep being presented: a scraper opens a new connection per
 * page with the same header, and decoding, parsing the username's options and hashing the
 * password again each time cost more than the rest of the admission. Only what the text alone
 * decides is remembered: whether the password is right, and whether the account may go on, are
 * checked on every connection. Malformed credentials are refused each time, never remembered.
 */
export class PresentedCredentials {
  private readonly read = new Map<string, Presented>();

  /** A `Proxy-Authorization` header's credentials; refused when absent or not Basic. */
  fromHeader(authorization: string | undefined): Presented {
    const known = authorization === undefined ? undefined : this.read.get(authorization);
    if (known) return known;
    const credentials = parseProxyAuthorization(authorization);
    if (!authorization || !credentials) {
      throw new Refusal(
        "auth_required",
        !authorization
          ? "Proxy credentials are required"
          : /^basic(\s|$)/i.test(authorization)
            ? "The proxy username or password is empty: send Basic base64(username:password)"
            : "Only Basic proxy authorization is supported",
      );
    }
    return this.remember(authorization, credentials.username, credentials.password);
  }

  /** SOCKS5's username and password (RFC 1929). */
  fromUserPass(username: string, password: string): Presented {
    // A plausible username holds no NUL, so the key tells every pair apart.
    const key = `\u0000${username}\u0000${password}`;
    return this.read.get(key) ?? this.remember(key, username, password);
  }

  private remember(key: string, username: string, password: string): Presented {
    if (!isPlausibleUsername(username)) throw wrongCredentials();
    const presented = { options: parseUsernameOptions(username), passwordHash: hashSecret(password) };
    if (this.read.size >= MAX_REMEMBERED) this.read.clear();
    this.read.set(key, presented);
    return presented;
  }
}
