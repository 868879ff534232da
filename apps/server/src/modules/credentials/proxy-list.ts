import { randomInt } from "node:crypto";
import {
  formatProxyUsername,
  type ProxyListEntry,
  type ProxyListOptions,
  proxyListLine,
  proxyUrlHost,
  SESSION_ID_LENGTH,
} from "@bytetoll/contracts";

/** Where the lines point: the gateway's public host and the port of each protocol it offers. */
export interface ProxyListGateway {
  host: string;
  httpPort: number;
  /** null when this network offers no SOCKS5 port. */
  socksPort: number | null;
}

const SESSION_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function sessionId(): string {
  let id = "";
  for (let i = 0; i < SESSION_ID_LENGTH; i++) id += SESSION_ALPHABET[randomInt(SESSION_ALPHABET.length)];
  return id;
}

/**
 * The entries of a list: every line a username the gateway accepts as it stands. Sticky lines each
 * get their own session id (so each line keeps its own exit); rotating lines are all the rotating
 * username, since every request through it may take another exit anyway.
 */
export function proxyListEntries(
  base: { username: string; password: string },
  options: ProxyListOptions,
  gateway: ProxyListGateway,
): ProxyListEntry[] {
  const port = options.protocol === "socks5" ? gateway.socksPort : gateway.httpPort;
  if (port === null) throw new Error("no SOCKS5 port: the caller checks before asking for a list");
  const scheme = options.protocol === "socks5" ? "socks5h" : "http";
  const entries: ProxyListEntry[] = [];
  for (let i = 0; i < options.count; i++) {
    const username = formatProxyUsername(base.username, {
      country: options.country,
      city: options.city,
      sessionId: options.sticky ? sessionId() : undefined,
      sessionMinutes: options.sticky ? options.sesstime : undefined,
    });
    const userinfo = `${encodeURIComponent(username)}:${encodeURIComponent(base.password)}`;
    entries.push({
      protocol: options.protocol,
      host: gateway.host,
      port,
      username,
      password: base.password,
      url: `${scheme}://${userinfo}@${proxyUrlHost(gateway.host)}:${port}`,
    });
  }
  return entries;
}

/** One line per entry in a line format, each ended by a newline. */
export function proxyListText(entries: ProxyListEntry[], format: ProxyListOptions["format"]): string {
  if (format === "json") throw new Error("json is not a line format");
  return entries.map((entry) => `${proxyListLine(entry, format)}\n`).join("");
}
