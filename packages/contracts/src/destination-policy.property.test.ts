import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AllowedDomains,
  compareWithinLevel,
  DESTINATION_ACTIONS,
  DestinationMatcher,
  type DestinationRuleData,
  parseDomainPattern,
  parsePorts,
} from "./destination-policy.ts";

const CUSTOMERS = ["c1", "c2"];
const NAMES = [
  "example.com",
  "www.example.com",
  "a.b.example.com",
  "shop.example",
  "x.shop.example",
  "1.2.3.4",
];
const PATTERNS = [
  "example.com",
  "*.example.com",
  "*.b.example.com",
  "shop.example",
  "*.shop.example",
  "1.2.3.4",
];
const PORT_LISTS = ["25", "25,465,587", "1-1024", "80", "443", "1-79,81-442,444-1024,2525", "1000-2000"];

/** The rule read the slow way: every rule, in the documented order, checked one by one. */
function referenceDecide(rules: DestinationRuleData[], customer: string | null, host: string, port: number) {
  const matches = (rule: DestinationRuleData) => {
    if (rule.ports !== null && !(parsePorts(rule.ports) ?? []).some(([a, b]) => port >= a && port <= b))
      return false;
    if (rule.domain === null) return true;
    const pattern = parseDomainPattern(rule.domain);
    if (!pattern) return false;
    return pattern.kind === "exact" ? host === pattern.name : host.endsWith(`.${pattern.name}`);
  };
  const ordered = [
    ...rules.filter((rule) => customer !== null && rule.customer_id === customer).sort(compareWithinLevel),
    ...rules.filter((rule) => rule.customer_id === null).sort(compareWithinLevel),
  ];
  const reported: DestinationRuleData[] = [];
  for (const rule of ordered) {
    if (!matches(rule)) continue;
    if (rule.action === "report") reported.push(rule);
    else return { decided: rule, reported };
  }
  return { decided: null, reported };
}

const ruleArbitrary = fc
  .record({
    action: fc.constantFrom(...DESTINATION_ACTIONS),
    domain: fc.option(fc.constantFrom(...PATTERNS)),
    ports: fc.option(fc.constantFrom(...PORT_LISTS)),
    customer_id: fc.option(fc.constantFrom(...CUSTOMERS)),
  })
  .filter((rule) => rule.domain !== null || rule.ports !== null);

describe("destination rules", () => {
  it("decide as reading every rule in the documented order would", () => {
    fc.assert(
      fc.property(
        fc.array(ruleArbitrary, { maxLength: 30 }),
        fc.option(fc.constantFrom(...CUSTOMERS, "c3")),
        fc.constantFrom(...NAMES),
        fc.constantFrom(1, 25, 80, 443, 465, 587, 1024, 1025, 1500, 2525, 8080, 65535),
        (drafts, customer, host, port) => {
          const rules = drafts.map((draft, index) => ({
            ...draft,
            id: index + 1,
            reason: `rule ${index + 1}`,
          }));
          expect(new DestinationMatcher(rules).decide(customer, host, port)).toEqual(
            referenceDecide(rules, customer, host, port),
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("let a customer's allow open what a global block refuses, for that customer only", () => {
    const matcher = new DestinationMatcher([
      { id: 1, action: "block", domain: null, ports: "25,465,587", customer_id: null, reason: "no mail" },
      { id: 2, action: "allow", domain: null, ports: "587", customer_id: "vetted", reason: "vetted sender" },
    ]);
    expect(matcher.decide("vetted", "smtp.example.com", 587).decided?.action).toBe("allow");
    expect(matcher.decide("vetted", "smtp.example.com", 25).decided?.action).toBe("block");
    expect(matcher.decide("other", "smtp.example.com", 587).decided?.action).toBe("block");
  });

  it("read ports and domains as written, and refuse what is not one", () => {
    expect(parsePorts("1-79,81-442, 444-1024,2525")).toEqual([
      [1, 79],
      [81, 442],
      [444, 1024],
      [2525, 2525],
    ]);
    for (const bad of ["", "0", "65536", "10-5", "25,", "a", "1-2-3"])
      expect(parsePorts(bad), bad).toBeNull();
    expect(parseDomainPattern("*.Example.COM.")).toEqual({ kind: "suffix", name: "example.com" });
    for (const bad of [
      "*.com",
      "*",
      "exa mple.com",
      "*.*.example.com",
      "http://example.com",
      "a..b",
      "-a.com",
    ])
      expect(parseDomainPattern(bad), bad).toBeNull();
  });

  it("hold a sub-user to its list: exact names, and every name below a *. suffix", () => {
    fc.assert(
      fc.property(fc.constantFrom(...NAMES), fc.subarray(PATTERNS), (host, entries) => {
        const expected = entries.some((entry) =>
          entry.startsWith("*.") ? host.endsWith(entry.slice(1)) : host === entry,
        );
        expect(new AllowedDomains(entries).allows(host)).toBe(expected);
      }),
    );
  });
});
