import type { Duplex } from "node:stream";
import type { Admitted } from "./admission.ts";
import { carriesAbsoluteForm, dial, proxyAuthorization } from "./dial.ts";
import {
  ChunkedScanner,
  type Framing,
  forwardedHeaders,
  HeadTooLarge,
  headEnd,
  keepsAlive,
  LengthScanner,
  MalformedMessage,
  parseResponseHead,
  type RequestHead,
  type ResponseHead,
  responseFraming,
} from "./http-message.ts";
import type { Flow } from "./meter.ts";
import { isSecureUrl, openOriginTls } from "./origin-tls.ts";
import { Refusal } from "./refusal.ts";
import { type SocketReader, writeAll } from "./socket-reader.ts";
import { poolKey, type TargetConnection, type TargetPool } from "./target-pool.ts";
import { splice } from "./tunnel.ts";

/** Told on a response (and a CONNECT's 200) when a sticky session's exit went down and the
 * session was given another: the exit IP changed. */
export const SESSION_MOVED_HEADER = "X-ByteToll-Session-Moved";

/** A target that stays silent this long in the middle of a request is given up. */
const TARGET_INACTIVITY_MS = 300_000;

/** Copies one message body from `from` to `to` as raw bytes, exactly as framed; resolves false
 * when either side went away first, rejects with MalformedMessage on a broken chunked body. */
export async function relayBody(
  from: SocketReader,
  to: Duplex,
  framing: Framing,
  flow: Flow,
): Promise<boolean> {
  if (framing.kind === "none") return true;
  const body =
    framing.kind === "length"
      ? new LengthScanner(framing.length)
      : framing.kind === "chunked"
        ? new ChunkedScanner()
        : null;
  return from.pump(to, body, () => flow.poll());
}

/** The path and query of an absolute-form target exactly as the client wrote them (no
 * normalisation: a proxy forwards what it was given). */
export function originForm(target: string): string {
  const afterScheme = target.indexOf("//") + 2;
  const start = target.slice(afterScheme).search(/[/?#]/);
  if (start === -1) return "/";
  const rest = target.slice(afterScheme + start).split("#")[0] as string;
  return rest.startsWith("/") ? rest : `/${rest}`;
}

/** Reads a message head; null when the peer closed before sending a single byte. `onBytes`
 * runs once bytes of the head have arrived. */
export async function readHead(
  reader: SocketReader,
  onBytes?: () => void,
): Promise<{ buffer: Buffer; end: number } | null> {
  let buffer: Buffer = Buffer.alloc(0);
  for (;;) {
    const chunk = await reader.read();
    if (!chunk) {
      if (buffer.length === 0) return null;
      throw new MalformedMessage("connection closed inside a message head");
    }
    onBytes?.();
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    // Empty lines before a request line are allowed (RFC 9112 §2.2).
    while (buffer.length >= 2 && buffer[0] === 0x0d && buffer[1] === 0x0a) buffer = buffer.subarray(2);
    const end = headEnd(buffer);
    if (end !== -1) {
      reader.unshift(buffer.subarray(end));
      return { buffer, end };
    }
  }
}

export interface PlainRequest {
  head: RequestHead;
  url: URL;
  framing: Framing;
  clientKeepAlive: boolean;
  admitted: Admitted;
  /** Told the final response status (the Intelligence learner counts refusals per domain). */
  onResponse?: (status: number) => void;
  /** Set as the response goes out, so a cut knows what the client can still be told. */
  progress?: ResponseProgress;
  /** A CA trusted besides Node's roots for `https://` sites (tests; operators set
   * NODE_EXTRA_CA_CERTS). */
  originCa?: string;
}

/** How far a plain request's response has gone to the client. */
export interface ResponseProgress {
  headSent: boolean;
  /** Its body ends with the connection: a cut cannot be told from the end but by a reset. */
  closeDelimited: boolean;
}

/** A response head the gateway cannot relay (over 64 KiB, malformed): the client gets a 502
 * instead, so nothing the target sent of it is billed, and the connection is not reused. */
function refusedResponse(connection: TargetConnection, error: unknown): Refusal {
  connection.socket.destroy();
  connection.target.dropReceived();
  const what =
    error instanceof HeadTooLarge
      ? "a response head over 64 KiB, which the gateway does not relay"
      : (error as Error).message;
  return new Refusal("upstream_failed", `The destination sent ${what}`);
}

/** A new connection for one request: plain TCP (through the exit in absolute form when it is an
 * HTTP(S) proxy), or TLS to an `https://` site over a tunnel. */
async function connectTarget(request: PlainRequest, pool: TargetPool): Promise<TargetConnection> {
  const { admitted, url } = request;
  const secure = isSecureUrl(url);
  const mode = !secure && carriesAbsoluteForm(admitted.upstream) ? "plain-http" : "tunnel";
  const dialed = await dial(admitted.upstream, admitted.target, admitted.exit, mode);
  return secure ? openOriginTls(dialed, url.hostname, request.originCa) : pool.wrap(dialed);
}

/** What became of the client connection after one request. */
export type Outcome = "keep-alive" | "close" | "spliced";

/**
 * Relays one absolute-URI request: origin-form head and raw body to the target (kept-alive
 * connection when there is one), then the response head and raw body back. Bytes are billed
 * from the target socket's counters: exactly what the target sent and received.
 */
export async function relayPlainRequest(
  client: Duplex,
  clientReader: SocketReader,
  request: PlainRequest,
  openFlow: () => Flow,
  pool: TargetPool,
  onSplicedDone: () => void,
): Promise<Outcome> {
  const { head, url, admitted } = request;
  const secure = isSecureUrl(url);
  // A TLS connection is verified for one host name: only requests for that name may reuse it.
  const key = `${poolKey(admitted.upstream, admitted.target)}${secure ? ` tls ${url.hostname}` : ""}`;
  // RFC 9112 §3.2.2: with an absolute-form target the proxy's Host is the target's authority.
  const headers = forwardedHeaders(head.headers.filter((h) => h.key !== "host"));
  // An HTTP/1.0 client's request goes on as HTTP/1.0, so the site answers with a body such a
  // client can read (never chunked: RFC 9112 §6.1), as squid and tinyproxy deliver it.
  const version = head.version === "1.0" ? "HTTP/1.0" : "HTTP/1.1";
  const originHead = `${head.method} ${originForm(head.target)} ${version}\r\nHost: ${url.host}\r\n${headers}\r\n`;
  // Through an HTTP(S) upstream the request goes to the upstream in absolute form; what that adds
  // (the longer request line, the upstream's Proxy-Authorization) is the proxy's, not billed.
  const absolute = !secure && carriesAbsoluteForm(admitted.upstream);
  const headText = absolute
    ? `${head.method} ${head.target} ${version}\r\nHost: ${url.host}\r\n${proxyAuthorization(admitted.upstream)}${headers}\r\n`
    : originHead;
  const proxyBytes = Buffer.byteLength(headText) - Buffer.byteLength(originHead);

  let target: TargetConnection | null = pool.acquire(key);
  let response: ResponseHead | null = null;
  let responseBuffer: Buffer = Buffer.alloc(0);
  let requestBody: Promise<boolean> = Promise.resolve(true);
  let requestBodyDone = request.framing.kind === "none";
  /** The client's chunked body broke its framing: the target was cut before the bad bytes. */
  let malformedBody: MalformedMessage | null = null;
  for (let attempt = 0; response === null; attempt++) {
    target ??= await connectTarget(request, pool);
    const connection: TargetConnection = target;
    const flow = openFlow();
    // The account ran dry while this request waited (a retry on a fresh connection): no resend.
    if (flow.cutCause) {
      connection.socket.destroy();
      throw flow.cutCause;
    }
    flow.attach(connection.target);
    connection.socket.setTimeout(TARGET_INACTIVITY_MS);
    connection.target.excuseWritten(proxyBytes);
    if (!(await writeAll(connection.socket, headText))) {
      connection.socket.destroy();
      if (connection.reused && attempt === 0 && request.framing.kind === "none") {
        target = null;
        continue;
      }
      throw new Refusal("upstream_failed", "The destination closed the connection");
    }
    if (request.framing.kind !== "none") {
      requestBody = relayBody(clientReader, connection.socket, request.framing, flow).then(
        (done) => {
          requestBodyDone = done;
          return done;
        },
        (error: unknown) => {
          // A malformed chunked body from the client: the target never gets the bad bytes, and
          // the client is refused (the session answers 400 and closes).
          malformedBody =
            error instanceof MalformedMessage ? error : new MalformedMessage("broken request body");
          connection.socket.destroy();
          return false;
        },
      );
    }
    // Interim 1xx responses (100 Continue) go straight to the client; the final one follows.
    for (;;) {
      let raw: { buffer: Buffer; end: number } | null;
      try {
        raw = await readHead(connection.reader);
      } catch (error) {
        if (malformedBody) throw malformedBody;
        if (error instanceof MalformedMessage) throw refusedResponse(connection, error);
        throw error;
      }
      if (!raw) break;
      let parsed: ResponseHead;
      try {
        parsed = parseResponseHead(raw.buffer, raw.end);
        // Checked before the head is billed: a head whose body cannot be framed is refused too.
        responseFraming(parsed, head.method);
      } catch (error) {
        throw refusedResponse(connection, error);
      }
      flow.poll();
      if (parsed.status >= 100 && parsed.status < 200 && parsed.status !== 101) {
        await writeAll(client, raw.buffer.subarray(0, raw.end));
        continue;
      }
      response = parsed;
      request.onResponse?.(parsed.status);
      responseBuffer = raw.buffer.subarray(0, raw.end);
      break;
    }
    if (response) break;
    if (malformedBody) throw malformedBody;
    // The target closed without answering: a kept-alive connection it had already given up.
    connection.socket.destroy();
    target = null;
    if (!(connection.reused && attempt === 0 && request.framing.kind === "none")) {
      throw new Refusal("upstream_failed", "The destination closed the connection without answering");
    }
  }
  const connection = target as TargetConnection;
  const flow = openFlow();

  if (response.status === 101) {
    await writeAll(client, responseBuffer);
    splice(client, clientReader.detach(), connection.socket, connection.reader, flow, onSplicedDone);
    return "spliced";
  }

  const framing: Framing = responseFraming(response, head.method);
  // A body that ends with the connection cannot be re-framed for a kept-alive client, and a
  // chunked body cannot go to an HTTP/1.0 client: both end the client connection. So does an
  // answer that came before the client's body was all sent (a 401 to an upload): the rest of
  // the body is not wanted, and the connection is closed after the answer.
  const clientKeepAlive =
    request.clientKeepAlive &&
    requestBodyDone &&
    framing.kind !== "close" &&
    !(framing.kind === "chunked" && head.version === "1.0");
  const moved = admitted.sessionMoved ? `${SESSION_MOVED_HEADER}: 1\r\n` : "";
  const clientHead = `${response.statusLine}\r\n${forwardedHeaders(response.headers)}${moved}Connection: ${clientKeepAlive ? "keep-alive" : "close"}\r\n\r\n`;
  if (request.progress) {
    request.progress.headSent = true;
    request.progress.closeDelimited = framing.kind === "close";
  }
  let complete = false;
  // The head and the body bytes already read leave in one write (one packet for small replies).
  client.cork();
  process.nextTick(() => client.uncork());
  try {
    if (await writeAll(client, clientHead))
      complete = await relayBody(connection.reader, client, framing, flow);
  } catch (error) {
    if (!(error instanceof MalformedMessage)) throw error;
  }
  if (!complete) {
    connection.socket.destroy();
    client.destroy();
    return "close";
  }
  connection.socket.setTimeout(0);
  if (!requestBodyDone) {
    // The target answered before the client finished its body: neither side can be reused. The
    // relay of the body stops with the target (the session then drains and closes the client).
    connection.socket.destroy();
    await requestBody;
    return "close";
  }
  await requestBody;
  if (framing.kind !== "close" && keepsAlive(response.version, response.headers))
    pool.release(key, connection);
  else connection.socket.destroy();
  return clientKeepAlive ? "keep-alive" : "close";
}
