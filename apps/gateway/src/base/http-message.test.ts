import { describe, expect, it } from "vitest";
import { originForm } from "../front/target-head.ts";
import {
  ChunkedScanner,
  MalformedMessage,
  parseRequestHead,
  requestFraming,
  responseFraming,
} from "./http-message.ts";

function head(text: string) {
  const buffer = Buffer.from(text);
  return parseRequestHead(buffer, buffer.length);
}

describe("HTTP/1.1 messages", () => {
  it("finds where a chunked body ends, however it is split", () => {
    const body = Buffer.from("4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nTrailer: x\r\n\r\nNEXT");
    for (let split = 1; split < body.length; split++) {
      const scanner = new ChunkedScanner();
      const first = scanner.scan(body.subarray(0, split));
      const second = scanner.done ? 0 : scanner.scan(body.subarray(split));
      expect(scanner.done).toBe(true);
      expect(first + second).toBe(body.length - "NEXT".length);
    }
  });

  it("strips only spaces and tabs around a header value, keeping a trailing 0xA0 byte", () => {
    const buffer = Buffer.from("GET / HTTP/1.1\r\nX-A: \t a\xa0\t \r\n\r\n", "latin1");
    const parsed = parseRequestHead(buffer, buffer.length);
    expect(parsed.headers.find((h) => h.key === "x-a")?.value).toBe("a\xa0");
  });

  it("rejects malformed chunk sizes", () => {
    expect(() => new ChunkedScanner().scan(Buffer.from("zz\r\n"))).toThrow(MalformedMessage);
    for (const line of ["5;a\nb", "5;a\u0000", '5;a="\u0001"', " 5", "5;", "5;=x", "5;a=b c"])
      expect(() => new ChunkedScanner().scan(Buffer.from(`${line}\r\n`)), line).toThrow(MalformedMessage);
    for (const line of ["5", "5 ", "5;a", "5 ; a = b", '5;a="q\\"x";b'])
      expect(new ChunkedScanner().scan(Buffer.from(`${line}\r\n`)), line).toBe(line.length + 2);
  });

  it("frames request bodies and refuses ambiguous ones", () => {
    expect(requestFraming(head("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n"))).toEqual({
      kind: "length",
      length: 10,
    });
    expect(requestFraming(head("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n"))).toEqual({
      kind: "chunked",
    });
    expect(requestFraming(head("GET / HTTP/1.1\r\n\r\n"))).toEqual({ kind: "none" });
    expect(() => requestFraming(head("POST / HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\n"))).toThrow(
      MalformedMessage,
    );
    expect(() => requestFraming(head("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"))).toThrow(
      MalformedMessage,
    );
  });

  it("frames responses per RFC 9112 §6.3", () => {
    const response = (status: number, headers: Array<[string, string]>) => ({
      version: "1.1" as const,
      status,
      statusLine: `HTTP/1.1 ${status}`,
      headers: headers.map(([name, value]) => ({ name, key: name.toLowerCase(), value })),
    });
    expect(responseFraming(response(200, [["Content-Length", "5"]]), "HEAD")).toEqual({ kind: "none" });
    expect(responseFraming(response(304, [["Content-Length", "5"]]), "GET")).toEqual({ kind: "none" });
    expect(responseFraming(response(200, [["Transfer-Encoding", "gzip, chunked"]]), "GET")).toEqual({
      kind: "chunked",
    });
    expect(responseFraming(response(200, [["Transfer-Encoding", "gzip"]]), "GET")).toEqual({ kind: "close" });
    expect(responseFraming(response(200, []), "GET")).toEqual({ kind: "close" });
  });

  it("forwards the path and query exactly as the client wrote them", () => {
    expect(originForm("http://a.test/x/../y%2F?q=1#frag")).toBe("/x/../y%2F?q=1");
    expect(originForm("http://a.test:81")).toBe("/");
    expect(originForm("http://a.test?q=1")).toBe("/?q=1");
  });
});
