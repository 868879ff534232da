import { ROUTING_SMART_SUFFIX, SESSION_ID_LENGTH, SESSION_SUFFIX_PREFIX } from "@bytetoll/contracts";
import { ByteTollError } from "./errors.ts";

/** How the proxy treats the connections of a username. */
export interface ProxyOptions {
  /** Keep one exit IP: `true` picks a random session id, a string names one (8 letters or digits). */
  sticky?: boolean | string;
  /** Smart routing: domains the learner found safe go over datacenter exits (cheaper). */
  smart?: boolean;
  /** `http` (default): an HTTP proxy URL; `socks5`: a `socks5h://` URL for SOCKS5 clients. */
  protocol?: "http" | "socks5";
}

const ALPHANUMERICS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const SESSION_ID = new RegExp(`^[A-Za-z0-9]{${SESSION_ID_LENGTH}}$`);

function randomSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SESSION_ID_LENGTH));
  return Array.from(bytes, (byte) => ALPHANUMERICS[byte % ALPHANUMERICS.length]).join("");
}

function sessionIdOf(sticky: ProxyOptions["sticky"]): string | null {
  if (sticky === undefined || sticky === false) return null;
  if (sticky === true) return randomSessionId();
  if (typeof sticky === "string" && SESSION_ID.test(sticky)) return sticky;
  throw ByteTollError.invalidArgument(
    `sticky must be true, false or a session id of ${SESSION_ID_LENGTH} letters or digits`,
  );
}

/** The proxy username grammar: `{username}[-session-{id}][-routing-smart]`, in that order. */
export function proxyUsername(base: string, options: ProxyOptions = {}): string {
  if (options.smart !== undefined && typeof options.smart !== "boolean") {
    throw ByteTollError.invalidArgument("smart must be true or false");
  }
  const sessionId = sessionIdOf(options.sticky);
  const session = sessionId ? `${SESSION_SUFFIX_PREFIX}${sessionId}` : "";
  return `${base}${session}${options.smart ? ROUTING_SMART_SUFFIX : ""}`;
}
