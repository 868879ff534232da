import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientKey, networkKey } from "./connection-limits.ts";

describe("who a connection counts against", () => {
  it("is the IPv4 address, also when IPv4-mapped, and the /64 of an IPv6 address", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe(clientKey("2001:db8:1:2:bbbb::2"));
    expect(clientKey("2001:db8:1:2::1")).not.toBe(clientKey("2001:db8:1:3::1"));
  });
});

describe("the network a connection also counts against", () => {
  it("is the IPv4 /24, also when IPv4-mapped, and the /48 of an IPv6 address", () => {
    expect(networkKey("203.0.113.7")).toBe("203.0.113.0/24");
    expect(networkKey("::ffff:203.0.113.200")).toBe("203.0.113.0/24");
    expect(networkKey("203.0.114.7")).not.toBe(networkKey("203.0.113.7"));
    expect(networkKey("2001:db8:1:2::1")).toBe(networkKey("2001:db8:1:ffff::2"));
    expect(networkKey("2001:db8:1:2::1")).toBe("2001:db8:1::/48");
    expect(networkKey("2001:db8:2::1")).not.toBe(networkKey("2001:db8:1::1"));
  });
});

describe("the keys of an IPv4 peer (read without a parser)", () => {
  const octet = fc.integer({ min: 0, max: 255 });
  it("are what the address parser makes of it, bare or IPv4-mapped", () => {
    fc.assert(
      fc.property(
        fc.tuple(octet, octet, octet, octet),
        fc.constantFrom("", "::ffff:", "::FFFF:"),
        (parts, prefix) => {
          const dotted = parts.join(".");
          expect(clientKey(`${prefix}${dotted}`)).toBe(dotted);
          expect(networkKey(`${prefix}${dotted}`)).toBe(`${parts.slice(0, 3).join(".")}.0/24`);
        },
      ),
    );
  });

  it("does not take an IPv4-translated IPv6 address for its IPv4 address", () => {
    expect(clientKey("::ffff:0:1.2.3.4")).not.toBe("1.2.3.4");
    expect(networkKey("::ffff:0:1.2.3.4")).not.toBe("1.2.3.0/24");
  });
});
