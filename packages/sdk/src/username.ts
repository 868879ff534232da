import {
  countryCodeProblem,
  formatProxyUsername,
  SESSION_ID_LENGTH,
  SESSION_ID_PATTERN,
  SESSION_MINUTES_MAX,
  SESSION_MINUTES_MIN,
} from "@bytetoll/contracts";
import { ByteTollError } from "./errors.ts";

/** How the proxy treats the connections of a username. */
export interface ProxyOptions {
  /** Keep one exit IP: `true` picks a random session id, a string names one (1–32 letters or digits). */
  sticky?: boolean | string;
  /** Minutes a sticky session keeps its exit after its last use (1–1440; the proxy's default is 10). */
  sessionMinutes?: number;
  /** Exit in this country: an ISO 3166-1 alpha-2 code such as "us" (any case). */
  country?: string;
  /** Exit in this city, where the upstream offers it: 2–40 of a–z and _ ("new_york"). */
  city?: string;
  /** Smart routing: domains the learner found safe go over datacenter exits (cheaper). */
  smart?: boolean;
  /** `http` (default): an HTTP proxy URL; `socks5`: a `socks5h://` URL for SOCKS5 clients. */
  protocol?: "http" | "socks5";
}

const ALPHANUMERICS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

function randomSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SESSION_ID_LENGTH));
  return Array.from(bytes, (byte) => ALPHANUMERICS[byte % ALPHANUMERICS.length]).join("");
}

function sessionIdOf(sticky: ProxyOptions["sticky"]): string | undefined {
  if (sticky === undefined || sticky === false) return undefined;
  if (sticky === true) return randomSessionId();
  if (typeof sticky === "string" && SESSION_ID_PATTERN.test(sticky)) return sticky;
  throw ByteTollError.invalidArgument("sticky must be true, false or a session id of 1–32 letters or digits");
}

function checkOptions(options: ProxyOptions): void {
  if (options.smart !== undefined && typeof options.smart !== "boolean") {
    throw ByteTollError.invalidArgument("smart must be true or false");
  }
  const minutes = options.sessionMinutes;
  if (
    minutes !== undefined &&
    (!Number.isInteger(minutes) || minutes < SESSION_MINUTES_MIN || minutes > SESSION_MINUTES_MAX)
  ) {
    throw ByteTollError.invalidArgument(
      `sessionMinutes must be a whole number from ${SESSION_MINUTES_MIN} to ${SESSION_MINUTES_MAX}`,
    );
  }
  if (options.country !== undefined) {
    const problem = countryCodeProblem(options.country);
    if (problem) throw ByteTollError.invalidArgument(problem);
  }
}

/** The proxy username grammar (one definition in @bytetoll/contracts):
 * `{username}[-country-CC][-city-NAME][-session-ID][-sesstime-MINUTES][-routing-smart]`. */
export function proxyUsername(base: string, options: ProxyOptions = {}): string {
  checkOptions(options);
  try {
    return formatProxyUsername(base, {
      country: options.country,
      city: options.city,
      sessionId: sessionIdOf(options.sticky),
      sessionMinutes: options.sessionMinutes,
      smart: options.smart,
    });
  } catch (error) {
    if (error instanceof ByteTollError) throw error;
    throw ByteTollError.invalidArgument((error as Error).message);
  }
}
