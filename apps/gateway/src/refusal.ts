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

/** How long a connection refused before its request was read stays open for the client to read
 * the refusal and close its side; then it is cut. */
const REFUSED_LINGER_MS = 2_000;

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

/** A refusal as raw bytes on the client connection; `close` when the connection cannot go on
 * (a CONNECT, an unread request body, a broken message). */
export function sendRawRefusal(socket: Duplex, refusal: Refusal, close = true): void {
  const body = bodyFor(refusal);
  const head = Object.entries({ ...headersFor(refusal, body), Connection: close ? "close" : "keep-alive" })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const bytes = `HTTP/1.1 ${refusal.status} ${refusal.statusText}\r\n${head}\r\n${body}`;
  if (close) socket.end(bytes);
  else socket.write(bytes);
}

/** Refuses a connection whose request was not (fully) read, then closes it: what the client
 * still sends is discarded, and a client that does not close is cut after a moment. */
export function refuseConnection(socket: Duplex, refusal: Refusal): void {
  sendRawRefusal(socket, refusal, true);
  socket.resume();
  setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
}
