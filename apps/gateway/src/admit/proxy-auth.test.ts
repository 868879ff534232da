import type { Refusal } from "@bytetoll/egress";
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

  it("splits the username options of the grammar, in any order", () => {
    const plain = { base: "alice", country: undefined, city: undefined, sessionId: undefined };
    expect(parseUsernameOptions("alice")).toEqual({ ...plain, sessionMinutes: 10, smart: false });
    expect(parseUsernameOptions("alice-session-Ab12cd34")).toMatchObject({ sessionId: "Ab12cd34" });
    expect(parseUsernameOptions("alice-routing-smart-session-x-sesstime-90-country-gb-city-leeds")).toEqual({
      base: "alice",
      country: "GB",
      city: "leeds",
      sessionId: "x",
      sessionMinutes: 90,
      smart: true,
    });
  });

  it("refuses an unknown or malformed option with bad_username_option naming it", () => {
    const refusalOf = (name: string) => {
      try {
        parseUsernameOptions(name);
      } catch (error) {
        return error as Refusal;
      }
      throw new Error(`${name} was accepted`);
    };
    expect(refusalOf("alice-colour-red")).toMatchObject({
      code: "bad_username_option",
      message: "Unknown username option 'colour'",
    });
    expect(refusalOf("alice-country-zz").message).toBe("Bad country code 'zz'");
    expect(refusalOf("alice-country-EU").message).toBe("Bad country code 'EU'");
    expect(refusalOf("alice-sesstime-10m").message).toMatch(/^Bad session lifetime '10m'/);
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
