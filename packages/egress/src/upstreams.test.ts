import { describe, expect, it } from "vitest";
import { loadGatewayConfig } from "./config.ts";
import { accountSession, fillTemplate, parseUpstream, servesCountry } from "./upstreams.ts";

const choice = { country: undefined, city: undefined, session: undefined, sessionMinutes: 10 };

describe("upstream URLs", () => {
  it("read the countries an exit names, in any case, repeated", () => {
    const spec = parseUpstream("http://127.0.0.1:3128?country=us&country=DE");
    expect(spec).toMatchObject({ kind: "http", port: 3128, countries: ["US", "DE"] });
    expect(spec.id).toBe("http://127.0.0.1:3128?country=us&country=de");
    expect(parseUpstream("direct?country=fr")).toMatchObject({ kind: "direct", countries: ["FR"] });
    expect(servesCountry(spec, "DE")).toBe(true);
    expect(servesCountry(spec, "FR")).toBe(false);
    expect(servesCountry(spec, undefined)).toBe(true);
    expect(servesCountry(parseUpstream("http://127.0.0.1:3128"), "US")).toBe(false);
  });

  it("stop the start with the variable's name for a bad country or parameter", () => {
    expect(() => loadGatewayConfig({ MOBILE_UPSTREAMS: "http://127.0.0.1:3128?country=zz" })).toThrow(
      /MOBILE_UPSTREAMS.*Bad country code 'zz'/s,
    );
    expect(() => loadGatewayConfig({ DATACENTER_UPSTREAMS: "http://127.0.0.1:3128?region=eu" })).toThrow(
      /DATACENTER_UPSTREAMS.*unknown upstream parameter "region"/s,
    );
  });

  it("fill a username template from the request, leaving out pieces without a value", () => {
    const spec = parseUpstream(
      "http://acct-country-{country}-city-{city}-session-{session}-ttl-{sesstime}:pw@gw.example:7777",
    );
    expect(spec).toMatchObject({ template: true, password: "pw" });
    expect(servesCountry(spec, "JP")).toBe(true);
    const session = accountSession("user-1", "abc");
    const filled = fillTemplate(spec, { country: "JP", city: "tokyo", session, sessionMinutes: 30 });
    expect(filled).toMatchObject({ username: `acct-country-jp-city-tokyo-session-${session}-ttl-30` });
    expect(fillTemplate(spec, choice)).toMatchObject({ username: "acct" });
    // A placeholder after a bare dash is left out with its dash.
    const bare = parseUpstream("http://any-{country}-{session}:pw@gw.example:7777");
    expect(fillTemplate(bare, { ...choice, country: "US" })).toMatchObject({ username: "any-us" });
    expect(fillTemplate(bare, { ...choice, country: "US", session })).toMatchObject({
      username: `any-us-${session}`,
    });
    // A template without {country} says nothing about where it leaves, unless ?country= does.
    const sessionOnly = parseUpstream("http://acct-session-{session}:pw@gw.example:7777");
    expect(servesCountry(sessionOnly, "JP")).toBe(false);
    expect(servesCountry(parseUpstream("http://acct-country-{country}:pw@gw.example?country=gb"), "JP")).toBe(
      false,
    );
    expect(accountSession("user-2", "abc")).not.toBe(session);
    expect(session).toMatch(/^[0-9a-f]{16}$/);
  });
});
