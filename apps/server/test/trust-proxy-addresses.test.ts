import fc from "fast-check";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";

const base = { JWT_SECRET: "x".repeat(40) };

/** The proxy list loadConfig makes of TRUST_PROXY, or null when it refuses the value. */
function trustList(value: string): string[] | null {
  try {
    const trust = loadConfig({ ...base, TRUST_PROXY: value }).TRUST_PROXY;
    return Array.isArray(trust) ? trust : null;
  } catch (error) {
    if (error instanceof ConfigError) return null;
    throw error;
  }
}

const zone = fc.string({ unit: fc.constantFrom(..."ab09:.%-_".split("")), minLength: 1, maxLength: 6 });
const address = fc.oneof(
  fc.ipV4(),
  fc.ipV4Extended(),
  fc.ipV6(),
  fc.tuple(fc.ipV6(), zone).map(([ip, id]) => `${ip}%${id}`),
);
const prefix = fc.oneof(
  fc.constant(""),
  fc.integer({ min: 1, max: 140 }).map((bits) => `/${bits}`),
);

describe("TRUST_PROXY addresses", () => {
  it("keeps dotted quads, IPv6, zones and prefixes that fit the family", () => {
    for (const value of [
      "10.0.0.0/8",
      "127.0.0.1",
      "::1",
      "2001:db8::/32",
      "fe80::1%eth0",
      "::ffff:10.0.0.1/128",
    ])
      expect(trustList(value), value).toEqual([value]);
  });

  it("refuses what the proxy reader would misread or not read at all", () => {
    for (const value of [
      "127.1",
      "0x7f000001",
      "10.0.0.0/33",
      "::/129",
      "10.0.0.0/8/8",
      "::ffff:0177.0.0.1",
      "fe80::1%a:b",
    ])
      expect(trustList(value), value).toBeNull();
  });

  it("every address list it accepts is one Fastify starts with", async () => {
    await fc.assert(
      fc.asyncProperty(address, prefix, async (ip, bits) => {
        const list = trustList(`${ip}${bits}`);
        if (list === null) return;
        const app = Fastify({ trustProxy: list });
        await app.close();
      }),
      { numRuns: 300 },
    );
  });
});
