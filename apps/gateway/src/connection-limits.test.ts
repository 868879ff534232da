import { describe, expect, it } from "vitest";
import { clientKey } from "./connection-limits.ts";

describe("who a connection counts against", () => {
  it("is the IPv4 address, also when IPv4-mapped, and the /64 of an IPv6 address", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe(clientKey("2001:db8:1:2:bbbb::2"));
    expect(clientKey("2001:db8:1:2::1")).not.toBe(clientKey("2001:db8:1:3::1"));
  });
});
