import type { Duplex } from "node:stream";

export type RefusalCode =
  | "auth_required"
  | "bad_credentials"
  | "bad_username_option"
  | "balance_exhausted"
  | "account_disabled"
  | "destination_forbidden"
  | "upstream_failed"
  | "bad_request"
  | "request_timeout"
  | "too_many_connections";

const statusOf: Record<RefusalCode, [number, string]> = {
  auth_required: [407, "Proxy Authentication Required"],
  bad_credentials: [407, "Proxy Authentication Required"],
  bad_username_option: [407, "Proxy Authentication Required"],
  balance_exhausted: [402, "Payment Required"],
  account_disabled: [403, "Forbidden"],
  destination_forbidden: [403, "Forbidden"],
  upstream_failed: [502, "Bad Gateway"],
  bad_request: [400, "Bad Request"],
  request_timeout: [408, "Request Timeout"],
  too_many_connections: [503, "Service Unavailable"],
};

export const REFUSAL_CODES = Object.keys(statusOf) as RefusalCode[];

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
  readonly status: number;
  readonly statusText: string;
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
    const [status, statusText] = statusOf[code];
    this.status = status;
    this.statusText = statusText;
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
export function closeConnection(socket: Duplex, last?: string, maxMs = LINGER_MAX_MS): void {
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
