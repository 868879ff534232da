import { describe, expect, it } from "vitest";
import { STORAGE_KEYS } from "./storage-keys.ts";
import { clearToken, isTokenUsable, readStoredToken, readUsableToken, storeToken } from "./token-storage.ts";

const NOW_MS = Date.UTC(2026, 0, 1);
const nowSeconds = NOW_MS / 1000;

describe("token expiry margin", () => {
  it("accepts a token that expires more than 10 s from now", () => {
    expect(isTokenUsable({ token: "t", exp: nowSeconds + 11 }, NOW_MS)).toBe(true);
    expect(isTokenUsable({ token: "t", exp: nowSeconds + 10.001 }, NOW_MS)).toBe(true);
  });
  it("refuses a token that expires within 10 s or has expired", () => {
    expect(isTokenUsable({ token: "t", exp: nowSeconds + 10 }, NOW_MS)).toBe(false);
    expect(isTokenUsable({ token: "t", exp: nowSeconds + 5 }, NOW_MS)).toBe(false);
    expect(isTokenUsable({ token: "t", exp: nowSeconds - 60 }, NOW_MS)).toBe(false);
    expect(isTokenUsable(null, NOW_MS)).toBe(false);
  });
});

describe("token storage", () => {
  it("stores {token, exp} in localStorage and reads it back", () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    storeToken({ token: "abc", exp });
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.appToken) ?? "null")).toEqual({
      token: "abc",
      exp,
    });
    expect(readUsableToken()).toBe("abc");
    clearToken();
    expect(window.localStorage.getItem(STORAGE_KEYS.appToken)).toBeNull();
    expect(readUsableToken()).toBeNull();
  });
  it("does not hand out a stored token that is about to expire", () => {
    storeToken({ token: "soon", exp: Math.floor(Date.now() / 1000) + 5 });
    expect(readStoredToken()?.token).toBe("soon");
    expect(readUsableToken()).toBeNull();
  });
  it("treats malformed storage as signed out", () => {
    for (const raw of ["not json", "null", '{"token":""}', '{"token":"x","exp":"soon"}', "[]"]) {
      window.localStorage.setItem(STORAGE_KEYS.appToken, raw);
      expect(readStoredToken()).toBeNull();
    }
  });
});
