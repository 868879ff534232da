/**
 * Just enough HTTP/1.1 (RFC 9112) to relay messages without re-encoding them: parse a head,
 * decide how the body is framed, and find where a chunked body ends. Bodies pass through as
 * raw bytes. Parsing is strict where laxness enables request smuggling (CL+TE, duplicate
 * lengths, obs-fold, bare LF in names).
 */

export const MAX_HEAD_BYTES = 64 * 1024;

export class MalformedMessage extends Error {}

/** A head past MAX_HEAD_BYTES: a request's is answered 431, as squid does, not a generic 400. */
export class HeadTooLarge extends MalformedMessage {
  constructor() {
    super("message head too large");
  }
}

export interface Header {
  name: string;
  /** Lower-case name, for lookups. */
  key: string;
  value: string;
}

export interface RequestHead {
  method: string;
  target: string;
  version: "1.0" | "1.1";
  headers: Header[];
}

export interface ResponseHead {
  version: "1.0" | "1.1";
  status: number;
  statusLine: string;
  headers: Header[];
}

export type Framing =
  | { kind: "none" }
  | { kind: "length"; length: number }
  | { kind: "chunked" }
  | { kind: "close" };

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The needles of headEnd, made once: a string needle is encoded again on every call. */
const CRLF_CRLF = Buffer.from("\r\n\r\n", "latin1");
const LF_LF = Buffer.from("\n\n", "latin1");
const LF_CRLF = Buffer.from("\n\r\n", "latin1");

/** Index just past the blank line ending the head, or -1 while it is incomplete. Lines may end
 * in a bare LF (RFC 9112 §2.2 lets a recipient accept them; squid and tinyproxy do): the head is
 * rebuilt with CRLF before it goes on, so the next parser never sees one. */
export function headEnd(buffer: Buffer): number {
  let end = -1;
  const crlf = buffer.indexOf(CRLF_CRLF);
  if (crlf !== -1) end = crlf + 4;
  const lf = buffer.indexOf(LF_LF);
  if (lf !== -1 && (end === -1 || lf + 2 < end)) end = lf + 2;
  // "\n\r\n" ends a head whose last header line ended in a bare LF.
  const mixed = buffer.indexOf(LF_CRLF);
  if (mixed !== -1 && (end === -1 || mixed + 3 < end)) end = mixed + 3;
  if (end === -1) {
    if (buffer.length > MAX_HEAD_BYTES) throw new HeadTooLarge();
    return -1;
  }
  if (end > MAX_HEAD_BYTES + 4) throw new HeadTooLarge();
  return end;
}

const isOptionalWhitespace = (code: number) => code === 0x20 || code === 0x09;

/** A field value without the spaces and tabs around it — only those: JS trim() would also eat
 * 0xA0 and change the value. A loop over char codes: a regex replace here cost three times as
 * much, on every header of every request and response. */
function fieldValue(line: string, start: number): string {
  let end = line.length;
  while (start < end && isOptionalWhitespace(line.charCodeAt(start))) start++;
  while (end > start && isOptionalWhitespace(line.charCodeAt(end - 1))) end--;
  return line.slice(start, end);
}

function parseHeaders(lines: string[]): Header[] {
  const headers: Header[] = [];
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new MalformedMessage("malformed header line");
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) throw new MalformedMessage("invalid header name");
    const value = fieldValue(line, colon + 1);
    if (!FIELD_VALUE.test(value)) throw new MalformedMessage("invalid header value");
    headers.push({ name, key: name.toLowerCase(), value });
  }
  return headers;
}

function splitHead(buffer: Buffer, end: number): string[] {
  const lines = buffer
    .toString("latin1", 0, end)
    .replace(/\r?\n\r?\n$/, "")
    .split(/\r?\n/);
  if (lines.some((line) => line.includes("\r"))) throw new MalformedMessage("bare CR");
  return lines;
}

export function parseRequestHead(buffer: Buffer, end: number): RequestHead {
  const [requestLine = "", ...lines] = splitHead(buffer, end);
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.([01])$/.exec(requestLine);
  if (!match) throw new MalformedMessage("malformed request line");
  return {
    method: match[1] as string,
    target: match[2] as string,
    version: match[3] === "1" ? "1.1" : "1.0",
    headers: parseHeaders(lines),
  };
}

export function parseResponseHead(buffer: Buffer, end: number): ResponseHead {
  const [statusLine = "", ...lines] = splitHead(buffer, end);
  const match = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(statusLine);
  if (!match) throw new MalformedMessage("malformed status line");
  return {
    version: match[1] === "1" ? "1.1" : "1.0",
    status: Number(match[2]),
    statusLine,
    headers: parseHeaders(lines),
  };
}

export function headerValues(headers: Header[], key: string): string[] {
  return headers.filter((h) => h.key === key).map((h) => h.value);
}

function tokens(headers: Header[], key: string): string[] {
  return headerValues(headers, key)
    .flatMap((value) => value.split(","))
    .map((token) => token.trim().toLowerCase())
    .filter(Boolean);
}

function contentLength(headers: Header[]): number | null {
  const values = headerValues(headers, "content-length").flatMap((v) => v.split(",").map((s) => s.trim()));
  if (values.length === 0) return null;
  if (values.some((v) => !/^\d{1,15}$/.test(v)) || new Set(values).size > 1) {
    throw new MalformedMessage("invalid Content-Length");
  }
  return Number(values[0]);
}

/** Request bodies: Content-Length or exactly `chunked`; both at once is a smuggling attempt. */
export function requestFraming(head: RequestHead): Framing {
  const codings = tokens(head.headers, "transfer-encoding");
  const length = contentLength(head.headers);
  if (codings.length > 0) {
    if (length !== null) throw new MalformedMessage("both Transfer-Encoding and Content-Length");
    if (codings.length !== 1 || codings[0] !== "chunked")
      throw new MalformedMessage("unsupported Transfer-Encoding");
    return { kind: "chunked" };
  }
  return length === null || length === 0 ? { kind: "none" } : { kind: "length", length };
}

/** Response bodies per RFC 9112 §6.3. */
export function responseFraming(head: ResponseHead, requestMethod: string): Framing {
  if (requestMethod === "HEAD" || head.status === 204 || head.status === 304 || head.status < 200) {
    return { kind: "none" };
  }
  const codings = tokens(head.headers, "transfer-encoding");
  if (codings.length > 0)
    return codings[codings.length - 1] === "chunked" ? { kind: "chunked" } : { kind: "close" };
  const length = contentLength(head.headers);
  if (length === null) return { kind: "close" };
  return length === 0 ? { kind: "none" } : { kind: "length", length };
}

/** Does the sender keep the connection open after this message? */
export function keepsAlive(version: "1.0" | "1.1", headers: Header[]): boolean {
  const connection = [...tokens(headers, "connection"), ...tokens(headers, "proxy-connection")];
  if (connection.includes("close")) return false;
  return version === "1.1" || connection.includes("keep-alive");
}

/** Headers that describe one hop, never forwarded (plus those the Connection header names). */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "te"]);

/** Is this a request to switch protocols (`Connection: upgrade` + `Upgrade`)? */
export function wantsUpgrade(headers: Header[]): boolean {
  return tokens(headers, "connection").includes("upgrade") && headers.some((h) => h.key === "upgrade");
}

/** The end-to-end headers as text; for a protocol switch `Upgrade` and `Connection: Upgrade`
 * are end-to-end too (RFC 9110 §7.8). */
export function forwardedHeaders(headers: Header[]): string {
  const upgrade = wantsUpgrade(headers);
  const named = new Set(tokens(headers, "connection"));
  let out = "";
  for (const header of headers) {
    if (HOP_BY_HOP.has(header.key)) continue;
    if (named.has(header.key) && !(upgrade && header.key === "upgrade")) continue;
    out += `${header.name}: ${header.value}\r\n`;
  }
  return upgrade ? `${out}Connection: Upgrade\r\n` : out;
}

/** A body framed by Content-Length: the next `length` bytes (the counterpart of ChunkedScanner). */
export class LengthScanner {
  constructor(private left: number) {}

  get done(): boolean {
    return this.left === 0;
  }

  scan(data: Buffer): number {
    const used = Math.min(this.left, data.length);
    this.left -= used;
    return used;
  }
}

/** `chunk-size *( BWS ";" BWS name [ BWS "=" BWS ( token / quoted-string ) ] )`: an extension
 * with a bare LF or another control character would be read differently by the next parser, so
 * it is refused rather than forwarded. */
const CHUNK_SIZE_LINE =
  /^([0-9a-fA-F]{1,12})(?:[ \t]*;[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*=[ \t]*(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+|"(?:[\t !\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t\x20-\x7e\x80-\xff])*"))?)*[ \t]*$/;

/**
 * Tracks a chunked body's framing as bytes pass by, so the relay knows where the message ends
 * without decoding it. `scan` returns how many bytes of `data` belong to the body, and `done`
 * turns true once the last chunk and trailer section are complete.
 */
export class ChunkedScanner {
  private state: "size" | "size-lf" | "data" | "data-cr" | "data-lf" | "trailer" | "trailer-lf" = "size";
  private remaining = 0;
  private sizeText = "";
  private trailerLineLength = 0;
  done = false;

  scan(data: Buffer): number {
    let i = 0;
    while (i < data.length && !this.done) {
      const byte = data[i] as number;
      switch (this.state) {
        case "size":
          if (byte === 0x0d) this.state = "size-lf";
          else {
            this.sizeText += String.fromCharCode(byte);
            if (this.sizeText.length > 1024) throw new MalformedMessage("chunk size line too long");
          }
          i++;
          break;
        case "size-lf": {
          if (byte !== 0x0a) throw new MalformedMessage("malformed chunk size line");
          const line = CHUNK_SIZE_LINE.exec(this.sizeText);
          if (!line) throw new MalformedMessage("malformed chunk size or extension");
          this.remaining = Number.parseInt(line[1] as string, 16);
          this.sizeText = "";
          this.state = this.remaining === 0 ? "trailer" : "data";
          this.trailerLineLength = 0;
          i++;
          break;
        }
        case "data": {
          const take = Math.min(this.remaining, data.length - i);
          this.remaining -= take;
          i += take;
          if (this.remaining === 0) this.state = "data-cr";
          break;
        }
        case "data-cr":
          if (byte !== 0x0d) throw new MalformedMessage("chunk data not followed by CRLF");
          this.state = "data-lf";
          i++;
          break;
        case "data-lf":
          if (byte !== 0x0a) throw new MalformedMessage("chunk data not followed by CRLF");
          this.state = "size";
          i++;
          break;
        case "trailer":
          if (byte === 0x0d) this.state = "trailer-lf";
          else if (++this.trailerLineLength > MAX_HEAD_BYTES) throw new MalformedMessage("trailer too long");
          i++;
          break;
        case "trailer-lf":
          if (byte !== 0x0a) throw new MalformedMessage("malformed trailer");
          if (this.trailerLineLength === 0) this.done = true;
          this.trailerLineLength = 0;
          this.state = "trailer";
          i++;
          break;
      }
    }
    return i;
  }
}
