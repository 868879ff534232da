import { describe, expect, it } from "vitest";
import { isPlausibleUsername, parseProxyAuthorization, parseUsernameOptions } from "./proxy-auth.ts";

describe("proxy credentials", () => {
  it("reads Basic credentials and keeps colons in the password", () => {
    const header = `Basic ${Buffer.from("alice:pa:ss").toString("base64")}`;
    expect(parseProxyAuthorization(header)).toEqual({ username: "alice", password: "pa:ss" });
    expect(parseProxyAuthorization("Bearer token")).toBeNull();
    expect(parseProxyAuthorization(`Basic ${Buffer.from("no-colon").toString("base64")}`)).toBeNull();
    expect(parseProxyAuthorization(undefined)).toBeNull();
  });

  it("splits the username options of the grammar", () => {
    expect(parseUsernameOptions("alice")).toEqual({ base: "alice", sessionId: undefined, smart: false });
    expect(parseUsernameOptions("alice-session-Ab12cd34")).toEqual({
      base: "alice",
      sessionId: "Ab12cd34",
      smart: false,
    });
    expect(parseUsernameOptions("alice-session-Ab12cd34-routing-smart")).toEqual({
      base: "alice",
      sessionId: "Ab12cd34",
      smart: true,
    });
    expect(parseUsernameOptions("alice-routing-smart")).toEqual({
      base: "alice",
      sessionId: undefined,
      smart: true,
    });
    // Unknown or misplaced options stay in the base, where no credential matches them.
    expect(parseUsernameOptions("alice-routing-smart-session-Ab12cd34").base).toBe("alice-routing-smart");
    expect(parseUsernameOptions("alice-country-us").base).toBe("alice-country-us");
  });

  it("takes a username with a control character (Unicode Cc) for a wrong credential, and only that", () => {
    for (let code = 0; code <= 0xffff; code++) {
      const character = String.fromCharCode(code);
      expect(isPlausibleUsername(`al${character}ice`), `U+${code.toString(16)}`).toBe(
        !/\p{Cc}/u.test(character),
      );
    }
    expect(isPlausibleUsername("álice-✓")).toBe(true);
  });
});
