import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ChunkedScanner,
  forwardedHeaders,
  headEnd,
  keepsAlive,
  MAX_HEAD_BYTES,
  MalformedMessage,
  parseRequestHead,
  parseResponseHead,
  requestFraming,
  responseFraming,
  wantsUpgrade,
} from "./http-message.ts";

/** Runs `read`, turning a MalformedMessage into the value "refused"; any other error escapes. */
function refusedOr<T>(read: () => T): T | "refused" {
  try {
    return read();
  } catch (error) {
    if (error instanceof MalformedMessage) return "refused";
    throw error;
  }
}

/** Bytes that look like HTTP often enough to reach every branch, and arbitrary bytes. */
const FRAGMENTS = [
  "GET",
  "POST",
  "HEAD",
  "CONNECT",
  " ",
  "  ",
  "/",
  "http://a.test/",
  "HTTP/1.1",
  "HTTP/1.0",
  "HTTP/2",
  "200",
  "204",
  "304",
  "101",
  "\r\n",
  "\r",
  "\n",
  ":",
  ": ",
  "Content-Length",
  "Transfer-Encoding",
  "chunked",
  "gzip",
  ",",
  "0",
  "12",
  "-1",
  "999999999999999999",
  "Connection",
  "Proxy-Connection",
  "close",
  "keep-alive",
  "upgrade",
  "Upgrade",
  "Host",
  "\t",
  "\u0000",
  "\u007f",
  "\u00a0",
  "\u00ff",
  ";",
  "=",
  '"',
  "\\",
  "a",
  "x=1",
];
const httpish = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.constant("\r\n\r\n")), { maxLength: 60 })
  .map((parts) => Buffer.from(parts.join(""), "latin1"));
const anyBytes = fc.oneof(
  httpish,
  fc.uint8Array({ maxLength: 400 }).map((bytes) => Buffer.from(bytes)),
);

/** Everything the relay does with a request head that arrived in `buffer`. */
function readRequest(buffer: Buffer) {
  const end = headEnd(buffer);
  if (end === -1) return "incomplete";
  const head = parseRequestHead(buffer, end);
  return [
    requestFraming(head),
    keepsAlive(head.version, head.headers),
    wantsUpgrade(head.headers),
    forwardedHeaders(head.headers),
  ];
}

function readResponse(buffer: Buffer, method: string) {
  const end = headEnd(buffer);
  if (end === -1) return "incomplete";
  const head = parseResponseHead(buffer, end);
  return [
    responseFraming(head, method),
    keepsAlive(head.version, head.headers),
    forwardedHeaders(head.headers),
  ];
}

/** Feeds `body` to a ChunkedScanner in the pieces `cuts` makes; what it consumed and whether it
 * finished, or "refused". */
function scanInPieces(body: Buffer, cuts: number[]): { used: number; done: boolean } | "refused" {
  const scanner = new ChunkedScanner();
  const edges = [...new Set([0, ...cuts.map((cut) => cut % (body.length + 1)), body.length])].sort(
    (a, b) => a - b,
  );
  return refusedOr(() => {
    let used = 0;
    for (let i = 1; i < edges.length && !scanner.done; i++) {
      const piece = body.subarray(edges[i - 1], edges[i]);
      const taken = scanner.scan(piece);
      // Progress: a scanner that is not done takes at least one byte of a non-empty piece.
      expect(taken).toBeGreaterThanOrEqual(piece.length === 0 ? 0 : 1);
      expect(taken).toBeLessThanOrEqual(piece.length);
      used += taken;
    }
    return { used, done: scanner.done };
  });
}

const tchar = fc.constantFrom(
  ..."!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split(""),
);
const token = fc.string({ unit: tchar, minLength: 1, maxLength: 12 });
/** A field value as a sender writes it: visible ASCII, obs-text, inner spaces and tabs. The
 * edges are visible ASCII, since the parser strips surrounding whitespace. */
const visible = fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code));
const fieldValue = fc.oneof(
  fc.constant(""),
  fc
    .tuple(
      visible,
      fc.string({
        unit: fc.oneof(visible, fc.constantFrom(" ", "\t", "\u0080", "\u00e9", "\u00ff")),
        maxLength: 20,
      }),
      visible,
    )
    .map(([first, middle, last]) => `${first}${middle}${last}`),
);
const headers = fc.array(fc.tuple(token, fieldValue), { maxLength: 8 });
const version = fc.constantFrom("1.0" as const, "1.1" as const);
const headerText = (list: Array<[string, string]>) =>
  list.map(([name, value]) => `${name}: ${value}\r\n`).join("");
const asHeaders = (list: Array<[string, string]>) =>
  list.map(([name, value]) => ({ name, key: name.toLowerCase(), value }));

describe("HTTP/1.1 message parsing, for any bytes", () => {
  it("reads any request head to a result or a MalformedMessage, never another error", () => {
    fc.assert(
      fc.property(anyBytes, (bytes) => {
        refusedOr(() => readRequest(bytes));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads any response head to a result or a MalformedMessage, never another error", () => {
    fc.assert(
      fc.property(anyBytes, fc.constantFrom("GET", "HEAD", "CONNECT"), (bytes, method) => {
        refusedOr(() => readResponse(bytes, method));
      }),
      { numRuns: 3000 },
    );
  });

  it("refuses a head that grows past the limit without ending", () => {
    expect(refusedOr(() => readRequest(Buffer.alloc(MAX_HEAD_BYTES + 1, "a")))).toBe("refused");
  });

  it("scans any chunked body the same way however it is split, and never fails otherwise", () => {
    const chunkish = fc
      .array(
        fc.oneof(
          fc.constantFrom(
            "0",
            "5",
            "a",
            "F",
            "fffffffffffff",
            ";",
            "=",
            '"',
            "\\",
            " ",
            "\t",
            "x",
            "\r\n",
            "\r",
            "\n",
            "\u0000",
            "\u00ff",
          ),
          fc.string({ maxLength: 8 }),
        ),
        { maxLength: 40 },
      )
      .map((parts) => Buffer.from(parts.join(""), "latin1"));
    fc.assert(
      fc.property(
        fc.oneof(
          chunkish,
          fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
        ),
        fc.array(fc.nat(), { maxLength: 8 }),
        (body, cuts) => {
          expect(scanInPieces(body, cuts)).toEqual(scanInPieces(body, []));
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("HTTP/1.1 messages a sender writes, read back", () => {
  it("parses any valid request head to what was written", () => {
    const target = fc.string({ unit: visible, minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(token, target, version, headers, (method, path, v, list) => {
        const buffer = Buffer.from(`${method} ${path} HTTP/${v}\r\n${headerText(list)}\r\n`, "latin1");
        expect(headEnd(buffer)).toBe(buffer.length);
        expect(parseRequestHead(buffer, buffer.length)).toEqual({
          method,
          target: path,
          version: v,
          headers: asHeaders(list),
        });
      }),
      { numRuns: 2000 },
    );
  });

  it("parses any valid response head to what was written", () => {
    const reason = fc.string({ unit: fc.oneof(visible, fc.constant(" ")), maxLength: 20 });
    fc.assert(
      fc.property(version, fc.integer({ min: 100, max: 999 }), reason, headers, (v, status, text, list) => {
        const statusLine = `HTTP/${v} ${status} ${text}`;
        const buffer = Buffer.from(`${statusLine}\r\n${headerText(list)}\r\n`, "latin1");
        expect(parseResponseHead(buffer, headEnd(buffer))).toEqual({
          version: v,
          status,
          statusLine,
          headers: asHeaders(list),
        });
      }),
      { numRuns: 2000 },
    );
  });

  it("finds the end of any valid chunked body, however it is split", () => {
    const extension = fc.oneof(
      fc.constant(""),
      fc.tuple(token, token).map(([name, value]) => `;${name}=${value}`),
      token.map((name) => `; ${name}="q\\"x"`),
    );
    const chunk = fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 40 }), extension, fc.boolean());
    const trailer = fc.array(fc.tuple(token, fieldValue), { maxLength: 3 });
    fc.assert(
      fc.property(
        fc.array(chunk, { maxLength: 6 }),
        trailer,
        fc.array(fc.nat(), { maxLength: 8 }),
        (chunks, fields, cuts) => {
          const encoded = Buffer.concat([
            ...chunks.map(([data, ext, upper]) => {
              const size = data.length.toString(16);
              return Buffer.concat([
                Buffer.from(`${upper ? size.toUpperCase() : size}${ext}\r\n`),
                data,
                Buffer.from("\r\n"),
              ]);
            }),
            Buffer.from(`0\r\n${headerText(fields)}\r\n`, "latin1"),
          ]);
          const withNext = Buffer.concat([encoded, Buffer.from("GET / HTTP/1.1\r\n")]);
          expect(scanInPieces(withNext, cuts)).toEqual({ used: encoded.length, done: true });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
