import { describe, expect, it } from "vitest";
import { base32Encode, matchingStep, totpCode } from "./totp.ts";

// RFC 6238 appendix B, SHA-1 key "12345678901234567890", last 6 of the 8 digits.
const SECRET = base32Encode(Buffer.from("12345678901234567890"));

describe("TOTP codes", () => {
  it("match the RFC 6238 test vectors", () => {
    expect(totpCode(SECRET, Math.floor(59 / 30))).toBe("287082");
    expect(totpCode(SECRET, Math.floor(1111111109 / 30))).toBe("081804");
    expect(totpCode(SECRET, Math.floor(2000000000 / 30))).toBe("279037");
  });

  it("accept a step either side of now, never one at or before the last accepted", () => {
    const now = 1111111109_000;
    const step = Math.floor(now / 30_000);
    expect(matchingStep(SECRET, totpCode(SECRET, step - 1), null, now)).toBe(step - 1);
    expect(matchingStep(SECRET, totpCode(SECRET, step + 1), null, now)).toBe(step + 1);
    expect(matchingStep(SECRET, totpCode(SECRET, step - 2), null, now)).toBeNull();
    expect(matchingStep(SECRET, totpCode(SECRET, step), step, now)).toBeNull();
  });
});
