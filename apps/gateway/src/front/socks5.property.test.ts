import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Parsed, parseGreeting, parseRequest, parseUserPass } from "./socks5.ts";

const parsers = { greeting: parseGreeting, userPass: parseUserPass, request: parseRequest } as const;

/** Feeds `bytes` in the given splits the way the session does: accumulate, parse, stop at the
 * first whole message or refusal. */
function feed<T>(parse: (bytes: Buffer) => Parsed<T>, bytes: Buffer, cuts: number[]): Parsed<T> {
  let buffer = Buffer.alloc(0);
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length]) {
    buffer = Buffer.concat([buffer, bytes.subarray(at, cut)]);
    at = cut;
    const parsed = parse(buffer);
    if (parsed.kind !== "need") return parsed;
  }
  return parse(buffer);
}

const request = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  // Mostly well-formed requests, so the interesting branches are reached.
  fc
    .tuple(
      fc.constantFrom(1, 2, 3, 9),
      fc.oneof(
        fc.uint8Array({ minLength: 4, maxLength: 4 }).map((a) => [1, ...a]),
        fc.uint8Array({ minLength: 16, maxLength: 16 }).map((a) => [4, ...a]),
        fc
          .string({ maxLength: 255 })
          .map((s) => [3, Buffer.byteLength(s, "latin1") & 0xff, ...Buffer.from(s, "latin1")]),
        fc.integer({ min: 0, max: 255 }).map((t) => [t]),
      ),
      fc.integer({ min: 0, max: 65535 }),
    )
    .map(([cmd, address, port]) => Uint8Array.from([5, cmd, 0, ...address, port >> 8, port & 0xff])),
);

describe("the SOCKS5 parsers, fed arbitrary bytes in arbitrary splits", () => {
  for (const [name, parse] of Object.entries(parsers)) {
    it(`${name}: always a message, a refusal or a wait for more — never a throw, never past the bytes`, () => {
      fc.assert(
        fc.property(request, fc.array(fc.nat(310), { maxLength: 8 }), (raw, cuts) => {
          const bytes = Buffer.from(raw);
          const whole = (parse as (b: Buffer) => Parsed<unknown>)(bytes);
          const split = feed(parse as (b: Buffer) => Parsed<unknown>, bytes, cuts);
          expect(["need", "done", "invalid"]).toContain(whole.kind);
          if (whole.kind === "done") expect(whole.consumed).toBeLessThanOrEqual(bytes.length);
          // However the bytes were split, the first whole message (or refusal) is the same.
          expect(split).toEqual(whole);
        }),
        { numRuns: 2_000 },
      );
    });
  }

  it("reads the three address types and the port of a CONNECT", () => {
    const v4 = parseRequest(Buffer.from([5, 1, 0, 1, 127, 0, 0, 1, 0x1f, 0x90]));
    expect(v4).toEqual({ kind: "done", value: { command: 1, host: "127.0.0.1", port: 8080 }, consumed: 10 });
    const name = Buffer.concat([
      Buffer.from([5, 1, 0, 3, 11]),
      Buffer.from("example.com"),
      Buffer.from([1, 187]),
    ]);
    expect(parseRequest(name)).toMatchObject({ kind: "done", value: { host: "example.com", port: 443 } });
    const v6 = Buffer.from([5, 1, 0, 4, ...new Array(15).fill(0), 1, 0, 80]);
    expect(parseRequest(v6)).toMatchObject({ kind: "done", value: { host: "0:0:0:0:0:0:0:1", port: 80 } });
    expect(parseRequest(Buffer.from([5, 1, 0, 7, 0, 0]))).toMatchObject({ kind: "invalid", reply: 8 });
  });

  it("reads RFC 1929 credentials, and refuses a greeting of another version", () => {
    const userPass = Buffer.from([1, 3, ...Buffer.from("bob"), 2, ...Buffer.from("pw")]);
    expect(parseUserPass(userPass)).toEqual({
      kind: "done",
      value: { username: "bob", password: "pw" },
      consumed: 8,
    });
    expect(parseGreeting(Buffer.from("GET / HTTP/1.1\r\n"))).toMatchObject({ kind: "invalid" });
    expect(parseGreeting(Buffer.from([5, 2, 0, 2]))).toEqual({
      kind: "done",
      value: { methods: [0, 2] },
      consumed: 4,
    });
  });
});
