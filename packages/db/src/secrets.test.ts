import { describe, expect, it } from "vitest";
import { hashesEqual, hashSecret } from "./secrets.ts";

describe("hashesEqual", () => {
  it("holds for the same secret's hashes only", () => {
    const hash = hashSecret("proxy-password");
    expect(hashesEqual(hash, hashSecret("proxy-password"))).toBe(true);
    expect(hashesEqual(hash, hashSecret("proxy-passwore"))).toBe(false);
    // The same up to the last character.
    expect(hashesEqual(hash, `${hash.slice(0, -1)}${hash.endsWith("0") ? "1" : "0"}`)).toBe(false);
    expect(hashesEqual(hash, hash.slice(0, -2))).toBe(false);
    expect(hashesEqual(hash, "")).toBe(false);
  });

  it("does not take two strings that are not hex for equal", () => {
    expect(hashesEqual("zz", "yy")).toBe(false);
    expect(hashesEqual("not a hash", "also not!!")).toBe(false);
  });
});
