import { describe, expect, it } from "vitest";
import { csvField, csvRecord } from "./csv.ts";

describe("RFC 4180 fields", () => {
  it("leaves plain values alone", () => {
    expect(csvField("example.com")).toBe("example.com");
    expect(csvField("")).toBe("");
  });

  it.each([
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["line\nbreak", '"line\nbreak"'],
    ["carriage\rreturn", '"carriage\rreturn"'],
  ])("quotes %j as %j", (value, quoted) => {
    expect(csvField(value)).toBe(quoted);
  });

  it("ends each record with CRLF", () => {
    expect(csvRecord(["2025-01-01", "a,b", "mobile", "1", "2"])).toBe('2025-01-01,"a,b",mobile,1,2\r\n');
  });
});
