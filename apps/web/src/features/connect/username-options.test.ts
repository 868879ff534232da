import { describe, expect, it } from "vitest";
import { proxyUsername, randomSessionId } from "./username-options.ts";

describe("proxy username options", () => {
  it("appends the session before the routing suffix, and nothing when both are off", () => {
    expect(proxyUsername("btabc", { sessionId: null, intelligence: false })).toBe("btabc");
    expect(proxyUsername("btabc", { sessionId: "Ab3dE6gH", intelligence: false })).toBe(
      "btabc-session-Ab3dE6gH",
    );
    expect(proxyUsername("btabc", { sessionId: null, intelligence: true })).toBe("btabc-routing-smart");
    expect(proxyUsername("btabc", { sessionId: "Ab3dE6gH", intelligence: true })).toBe(
      "btabc-session-Ab3dE6gH-routing-smart",
    );
  });

  it("adds the country and a session lifetime other than the default, as the gateway reads them", () => {
    expect(
      proxyUsername("btabc", { sessionId: "s1", intelligence: true, country: "DE", sessionMinutes: 60 }),
    ).toBe("btabc-country-de-session-s1-sesstime-60-routing-smart");
    expect(proxyUsername("btabc", { sessionId: "s1", intelligence: false, sessionMinutes: 10 })).toBe(
      "btabc-session-s1",
    );
    // A lifetime without a sticky session means nothing and is left out.
    expect(proxyUsername("btabc", { sessionId: null, intelligence: false, sessionMinutes: 60 })).toBe(
      "btabc",
    );
  });

  it("adds no suffix to credentials that have not loaded", () => {
    expect(proxyUsername("", { sessionId: "Ab3dE6gH", intelligence: true })).toBe("");
  });

  it("makes 8-character alphanumeric session ids that differ", () => {
    const ids = new Set(Array.from({ length: 50 }, randomSessionId));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(ids.size).toBeGreaterThan(45);
  });
});
