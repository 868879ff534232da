import { describe, expect, it } from "vitest";
import { ConfigError, loadGatewayConfig } from "./config.ts";
import { cidrContains, parseCidr, parseIpLiteral } from "./ip-address.ts";

describe("IP literals are read the way resolvers read them", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["0X7F000001", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0177.0.0.01", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.0.1", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["0x7f.0.0.0x1", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["3232235777", "192.168.1.1"],
    ["0xa9fea9fe", "169.254.169.254"],
    ["[::1]", "::1"],
    ["::1", "::1"],
    ["[::ffff:127.0.0.1]", "::ffff:7f00:1"],
    ["[0:0:0:0:0:ffff:7f00:1]", "::ffff:7f00:1"],
    ["[::127.0.0.1]", "::7f00:1"],
    ["[FE80::1%25eth0]", "fe80::1"],
    ["[2001:DB8:0:0:0:0:0:1]", "2001:db8::1"],
  ])("%s → %s", (input, canonical) => {
    expect(parseIpLiteral(input)?.toString()).toBe(canonical);
  });

  it.each([
    "example.com",
    "1e100.net",
    "127.0.0.1.nip.io",
    "256.0.0.1",
    "1.2.3.4.5",
    "0x",
    "08.0.0.1",
    "[::g]",
    "",
  ])("%s is not an IP literal", (input) => {
    expect(parseIpLiteral(input)).toBeNull();
  });

  it("matches CIDR ranges of both families", () => {
    const loopback = parseCidr("127.0.0.0/8");
    const ula = parseCidr("fc00::/7");
    expect(loopback && cidrContains(loopback, parseIpLiteral("127.255.1.2")!)).toBe(true);
    expect(loopback && cidrContains(loopback, parseIpLiteral("128.0.0.1")!)).toBe(false);
    expect(ula && cidrContains(ula, parseIpLiteral("fd12:3456::1")!)).toBe(true);
    expect(ula && cidrContains(ula, parseIpLiteral("127.0.0.1")!)).toBe(false);
    expect(parseCidr("10.0.0.0/33")).toBeNull();
  });

  it("takes a prefix of digits only, so a stray slash cannot open every address", () => {
    for (const bad of ["10.0.0.0/", "10.0.0.0/8/0", "10.0.0.0/ 8", "10.0.0.0/0x8", "::1/1e2"]) {
      expect(parseCidr(bad), bad).toBeNull();
      expect(() => loadGatewayConfig({ EGRESS_ALLOW: bad }), bad).toThrow(ConfigError);
    }
    expect(parseCidr("[::1]/128")?.join("/")).toBe("::1/128");
    expect(parseCidr("127.1")?.join("/")).toBe("127.0.0.1/32");
  });
});
