import type { Duplex } from "node:stream";

/** What clients are told in `X-ByteToll-Error` (and the JSON body's `error`). */
export type RefusalCode =
  | "auth_required"
  | "bad_credentials"
  | "bad_username_option"
  | "balance_exhausted"
  | "subuser_limit_reached"
  | "subuser_disabled"
  | "account_disabled"
  | "destination_forbidden"
  | "destination_blocked"
  | "destination_not_allowed"
  | "upstream_failed"
  | "no_exit_in_country"
  | "bad_request"
  | "request_timeout"
  | "too_many_connections";

/** SOCKS5 reply codes (RFC 1928 §6) a refusal can become. */
const SOCKS_GENERAL_FAILURE = 0x01;
const SOCKS_NOT_ALLOWED = 0x02;
const SOCKS_NETWORK_UNREACHABLE = 0x03;
const SOCKS_HOST_UNREACHABLE = 0x04;
const SOCKS_CONNECTION_REFUSED = 0x05;
const SOCKS_TTL_EXPIRED = 0x06;

interface CauseInfo {
  status: number;
  /** The reason phrase: wget, Go, requests and aiohttp show only the status line, so it says why. */
  reason: string;
  code: RefusalCode;
  socksReply: number;
}

/**
 * Every reason the gateway refuses a request, in one list: each with its HTTP status and reason
 * phrase, the code clients see, and its SOCKS5 reply. A cause is finer than its code where the
 * gateway itself needs to tell them apart (a dial that failed is the site's or the exit's
 * failure; a site that hung up mid-answer is another), so nothing downstream parses messages.
 */
const CAUSES = {
  auth_required: {
    status: 407,
    reason: "Proxy Authentication Required",
    code: "auth_required",
    socksReply: SOCKS_NOT_ALLOWED,
  },
  bad_credentials: {
    status: 407,
    reason: "Bad Proxy Credentials",
    code: "bad_credentials",
    socksReply: SOCKS_NOT_ALLOWED,
  },
  bad_username_option: {
    status: 407,
    reason: "Bad Username Option",
    code: "bad_username_option",
    socksReply: SOCKS_NOT_ALLOWED,
  },
  balance_exhausted: {
    status: 402,
    reason: "Balance Exhausted",
    code: "balance_exhausted",
    socksReply: SOCKS_NOT_ALLOWED,
  },
  /** A sub-user used up its own limit for the period (the owner's balance may still hold data). */
  subuser_limit_reached: {
    status: 402,
    reason: "Sub-user Limit Reached",
    code: "subuser_limit_reached",
    socksReply: SOCKS_NOT_ALLOWED,
  },
  subuser_disabled: {
    status: 403,
    reason: "Sub-user Disabled",
    code: "subuser_disabled",
    socksReply: SOCKS_NOT_ALLOWED,
  },
  account_disabled: {
    status: 403,
    reason: "Account Disabled",
    code: "account_disabled",
    socksReply: SOCKS_NOT_ALLOWED,
  },
  destination_forbidden: {
    status: 403,
    reason: "Destination Forbidden",
    code: "destination_forbidden",
    socksReply: SOCKS_NOT_ALLOWED,
  },
  /** An operator's destination rule refuses the target (docs/product.md#destination-policy). */
  destination_blocked: {
    status: 403,
    reason: "Destination Blocked",
    code: "destination_blocked",
    socksReply: SOCKS_NOT_ALLOWED,
  },
  /** The target is not on the sub-user's list of allowed sites. */
  destination_not_allowed: {
    status: 403,
    reason: "Destination Not Allowed",
    code: "destination_not_allowed",
    socksReply: SOCKS_NOT_ALLOWED,
  },
  /** The target (or the exit in front of it) could not be reached at all. */
  dial_failed: {
    status: 502,
    reason: "Destination Unreachable",
    code: "upstream_failed",
    socksReply: SOCKS_HOST_UNREACHABLE,
  },
  /** The target actively refused the connection. */
  dial_refused: {
    status: 502,
    reason: "Connection Refused",
    code: "upstream_failed",
    socksReply: SOCKS_CONNECTION_REFUSED,
  },
  /** The target was reached but closed, reset or answered something that is not HTTP. */
  upstream_failed: {
    status: 502,
    reason: "Bad Gateway",
    code: "upstream_failed",
    socksReply: SOCKS_GENERAL_FAILURE,
  },
  /** The username named a country that no exit of the chosen pool serves. */
  no_exit_in_country: {
    status: 502,
    reason: "No Exit In Country",
    code: "no_exit_in_country",
    socksReply: SOCKS_NETWORK_UNREACHABLE,
  },
  /** A request head past 64 KiB, as squid answers it. */
  head_too_large: {
    status: 431,
    reason: "Request Header Fields Too Large",
    code: "bad_request",
    socksReply: SOCKS_GENERAL_FAILURE,
  },
  bad_request: { status: 400, reason: "Bad Request", code: "bad_request", socksReply: SOCKS_GENERAL_FAILURE },
  request_timeout: {
    status: 408,
    reason: "Request Timeout",
    code: "request_timeout",
    socksReply: SOCKS_TTL_EXPIRED,
  },
  too_many_connections: {
    status: 503,
    reason: "Too Many Connections",
    code: "too_many_connections",
    socksReply: SOCKS_GENERAL_FAILURE,
  },
} as const satisfies Record<string, CauseInfo>;

export type RefusalCause = keyof typeof CAUSES;

export const REFUSAL_CODES = [...new Set(Object.values(CAUSES).map((cause) => cause.code))] as RefusalCode[];

/** A connection refused before it was counted (at a connection cap) or before its request was
 * read (408) gets this long for the client to read the refusal; then it is cut. */
const REFUSED_LINGER_MS = 2_000;

/** A connection the gateway ends after a response is cut once nothing has arrived for this long
 * after the response was handed to the kernel, and at the latest after LINGER_MAX_MS: what the
 * client still sends (an upload the target answered early) is read and dropped meanwhile, so
 * the client gets the response and a FIN instead of a reset, and no half-closed connection stays
 * open for ever. */
const LINGER_IDLE_MS = 2_000;
const LINGER_MAX_MS = 30_000;

const ignore = () => {};

/** A request the gateway will not carry; the code travels in `X-ByteToll-Error` so clients
 * (and the server's connection test) can tell the reasons apart without parsing the body. */
export class Refusal extends Error {
  readonly code: RefusalCode;
  readonly status: number;
  readonly statusText: string;
  readonly socksReply: number;
  constructor(
    readonly reason: RefusalCause,
    message: string,
  ) {
    super(message);
    const info: CauseInfo = CAUSES[reason];
    this.code = info.code;
    this.status = info.status;
    this.statusText = info.reason;
    this.socksReply = info.socksReply;
  }
}

/** A dial that failed. `exitsFault`: the exit itself failed (it could not be reached, or it
 * refused the request itself), which says nothing about the site; otherwise the exit answered and
 * the target did not (or, dialled directly, the target failed). */
export class DialFailure extends Refusal {
  constructor(
    reason: "dial_failed" | "dial_refused",
    message: string,
    readonly exitsFault: boolean,
  ) {
    super(reason, message);
  }
}

function headersFor(refusal: Refusal, body: string): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    "X-ByteToll-Error": refusal.code,
  };
  if (refusal.status === 407) headers["Proxy-Authenticate"] = 'Basic realm="ByteToll"';
  return headers;
}

function bodyFor(refusal: Refusal): string {
  return JSON.stringify({ success: false, error: refusal.code, message: refusal.message });
}

function responseFor(refusal: Refusal, close: boolean): string {
  const body = bodyFor(refusal);
  const head = Object.entries({ ...headersFor(refusal, body), Connection: close ? "close" : "keep-alive" })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return `HTTP/1.1 ${refusal.status} ${refusal.statusText}\r\n${head}\r\n${body}`;
}

/** A refusal as raw bytes on the client connection; `close` when the connection cannot go on
 * (a CONNECT, an unread request body, a broken message). With `close`, whoever reads the socket
 * must have stopped (closeConnection reads what is left). */
export function sendRawRefusal(socket: Duplex, refusal: Refusal, close = true): void {
  const bytes = responseFor(refusal, close);
  if (close) closeConnection(socket, bytes);
  else if (socket.writable) socket.write(bytes);
  else socket.destroy();
}

/**
 * Ends a client connection after `last` (and whatever was written before): FIN, then what the
 * client still sends is read and dropped until it closes too, or until the connection has been
 * quiet (nothing to send, nothing received) for LINGER_IDLE_MS, or `maxMs` have passed; then it
 * is cut. The caller must have stopped reading the socket itself.
 */
export function closeConnection(socket: Duplex, last?: string | Buffer, maxMs = LINGER_MAX_MS): void {
  // A client that resets instead of reading must not become an uncaught exception.
  socket.on("error", ignore);
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(last);
  let activeAt = Date.now();
  socket.on("data", () => {
    activeAt = Date.now();
  });
  socket.resume();
  const deadline = activeAt + maxMs;
  const check = () => {
    if (socket.destroyed) return;
    const now = Date.now();
    if (!socket.writableFinished) activeAt = now;
    const quietUntil = activeAt + LINGER_IDLE_MS;
    if (now >= deadline || now >= quietUntil) socket.destroy();
    else setTimeout(check, Math.min(deadline, quietUntil) - now).unref();
  };
  setTimeout(check, Math.min(maxMs, LINGER_IDLE_MS)).unref();
}

/** Refuses a connection whose request was not (fully) read, then closes it: what the client
 * still sends is discarded, and a client that does not close is cut after a moment. */
export function refuseConnection(socket: Duplex, refusal: Refusal): void {
  closeConnection(socket, responseFor(refusal, true), REFUSED_LINGER_MS);
}
