import { encodeDealId } from "@bytetoll/contracts";
import Hashids from "hashids";
import { describe, expect, it } from "vitest";
import {
  buildLoginRequest,
  loginPathFor,
  parsePurchaseAmount,
  readLoginPrefill,
  signedInDestination,
} from "./login-request.ts";

const params = (query: string) => new URLSearchParams(query);

describe("deal id in the login request", () => {
  it("round-trips through the URL encoding", () => {
    const di = encodeDealId(7);
    expect(di.length).toBeGreaterThanOrEqual(8);
    expect(buildLoginRequest("a@b.co", params(`di=${di}`), null).dealId).toBe(7);
  });

  it("is left out when di is not one of ours", () => {
    const foreign = new Hashids("another-salt", 8).encode(7);
    for (const di of ["", "!!!", "abcdefgh", foreign, new Hashids("bytetoll-deals", 8).encode(1, 2)]) {
      expect(buildLoginRequest("a@b.co", params(`di=${encodeURIComponent(di)}`), null)).not.toHaveProperty(
        "dealId",
      );
    }
  });
});

describe("parsePurchaseAmount", () => {
  it("rounds a positive amount to whole dollars", () => {
    expect(parsePurchaseAmount("25")).toBe(25);
    expect(parsePurchaseAmount("24.5")).toBe(25);
    expect(parsePurchaseAmount("1e2")).toBe(100);
  });
  it("ignores anything that is not a positive finite number", () => {
    for (const usd of [null, "", " ", "abc", "-5", "0", "0.4", "Infinity", "NaN"]) {
      expect(parsePurchaseAmount(usd)).toBeUndefined();
    }
  });
});

describe("readLoginPrefill", () => {
  it("keeps only non-empty string credentials", () => {
    expect(readLoginPrefill({ username: "u", password: "p" })).toEqual({ username: "u", password: "p" });
    expect(readLoginPrefill({ username: "u", password: 5 })).toEqual({ username: "u" });
    expect(readLoginPrefill({ username: "", password: "" })).toBeNull();
    expect(readLoginPrefill(null)).toBeNull();
    expect(readLoginPrefill("u:p")).toBeNull();
  });
});

describe("signedInDestination", () => {
  it("goes to checkout only with both di and usd, to the deal's card with di alone", () => {
    expect(signedInDestination(params("di=abc&usd=10"))).toBe("/checkout?di=abc&usd=10");
    expect(signedInDestination(params("di=abc"))).toBe("/?di=abc");
    expect(signedInDestination(params("usd=10"))).toBe("/");
    expect(signedInDestination(params("di=&usd=10"))).toBe("/");
  });
});

describe("loginPathFor", () => {
  it("keeps a shared link's deal, amount and free-credit claim through sign-in, nothing else", () => {
    expect(loginPathFor(params("di=abc"))).toBe("/login?di=abc");
    expect(loginPathFor(params("s=cc&di=abc&usd=10&ss=false"))).toBe("/login?s=cc&di=abc&usd=10");
    expect(loginPathFor(params("ss=false"))).toBe("/login");
  });
});
