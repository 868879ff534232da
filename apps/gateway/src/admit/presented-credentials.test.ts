import { hashSecret } from "@bytetoll/db";
import { Refusal } from "@bytetoll/egress";
import { describe, expect, it } from "vitest";
import { PresentedCredentials } from "./presented-credentials.ts";

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

const codeOf = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    if (error instanceof Refusal) return error.code;
  }
  return null;
};

describe("credentials as presented, read once while they repeat", () => {
  it("reads a header's username options and password hash, the same on every new connection", () => {
    const credentials = new PresentedCredentials();
    const first = credentials.fromHeader(basic("alice-country-gb", "secret"));
    expect(first).toEqual({
      options: expect.objectContaining({ base: "alice", country: "GB" }),
      passwordHash: hashSecret("secret"),
    });
    expect(credentials.fromHeader(basic("alice-country-gb", "secret"))).toBe(first);
    // Another password is another reading: whether a password is right is never remembered here.
    expect(credentials.fromHeader(basic("alice-country-gb", "other")).passwordHash).toBe(hashSecret("other"));
  });

  it("refuses malformed credentials every time they come, with the refusal of the first time", () => {
    const credentials = new PresentedCredentials();
    for (let i = 0; i < 2; i++) {
      expect(codeOf(() => credentials.fromHeader(undefined))).toBe("auth_required");
      expect(codeOf(() => credentials.fromHeader("Bearer token"))).toBe("auth_required");
      expect(codeOf(() => credentials.fromHeader(basic("alice-country-zz", "secret")))).toBe(
        "bad_username_option",
      );
      expect(codeOf(() => credentials.fromHeader(basic("al\u0000ice", "secret")))).toBe("bad_credentials");
      expect(codeOf(() => credentials.fromUserPass("al\u0001ice", "secret"))).toBe("bad_credentials");
    }
  });

  it("tells SOCKS5 username and password pairs apart wherever their text would meet", () => {
    const credentials = new PresentedCredentials();
    const a = credentials.fromUserPass("alice", "x\u0000y");
    const b = credentials.fromUserPass("alice", "x");
    expect(a.passwordHash).toBe(hashSecret("x\u0000y"));
    expect(b.passwordHash).toBe(hashSecret("x"));
    expect(credentials.fromUserPass("alice", "x\u0000y")).toBe(a);
  });

  it("stays bounded under endless distinct credentials, and still reads each right", () => {
    const credentials = new PresentedCredentials();
    for (let i = 0; i < 5_000; i++) {
      const read = credentials.fromUserPass(`user${i}`, `pass${i}`);
      expect(read.options.base).toBe(`user${i}`);
    }
    expect((credentials as unknown as { read: Map<string, unknown> }).read.size).toBeLessThanOrEqual(1_000);
  });
});
