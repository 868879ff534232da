import { Refusal } from "@bytetoll/egress";
import type { RequestHead } from "../base/http-message.ts";

/** What an HTTP proxy request names as its destination, read from its request line. */

/** A header's value (the first of that name; keys are lower-case). */
export function header(head: RequestHead, key: string): string | undefined {
  return head.headers.find((h) => h.key === key)?.value;
}

/** A CONNECT target: `host:port` or `[v6]:port`. */
export function parseAuthority(authority: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:[\]/]+):(\d{1,5})$/.exec(authority);
  if (!match) {
    // An IPv6 address needs brackets, or its last group reads as the port.
    if ((authority.match(/:/g) ?? []).length > 1 && !authority.startsWith("[")) {
      throw new Refusal(
        "bad_request",
        "CONNECT to an IPv6 address needs brackets: CONNECT [2001:db8::1]:443",
      );
    }
    throw new Refusal("bad_request", "CONNECT needs host:port, e.g. CONNECT example.com:443");
  }
  const port = Number(match[2]);
  if (port < 1 || port > 65535) {
    throw new Refusal("bad_request", `CONNECT port ${match[2]} is not a port: use 1 to 65535`);
  }
  return { host: match[1] as string, port };
}

/** A plain request's absolute-form target: http:// or ws://, and https:// or wss://, which the
 * gateway relays over TLS it speaks to the site itself, as squid does. */
export function parseProxyUrl(target: string): URL {
  // ws:// is HTTP with an Upgrade, relayed as such (the 101 turns into a tunnel).
  if (!/^(?:https?|wss?):\/\//i.test(target)) {
    throw new Refusal(
      "bad_request",
      "This is a proxy: send absolute-URI requests (http://host/path) or CONNECT",
    );
  }
  try {
    return new URL(target);
  } catch {
    throw new Refusal("bad_request", "The request URL is not valid");
  }
}
