import { describe, expect, it } from "vitest";
import { debitsOf } from "./flush.ts";

const prices = { pricePerGbUsd: 3, dcPricePerGbUsd: 0.3 };

describe("debits", () => {
  it("charges mobile 1:1 and datacenter at the price ratio, rounded up once per user", () => {
    const debits = debitsOf(
      [
        { userId: "a", day: "2026-01-01", domain: "x", proxyType: "mobile", bytes: 1000, requests: 1 },
        { userId: "a", day: "2026-01-01", domain: "y", proxyType: "dc", bytes: 15, requests: 1 },
        { userId: "a", day: "2026-01-01", domain: "z", proxyType: "dc", bytes: 16, requests: 1 },
        { userId: "b", day: "2026-01-01", domain: "x", proxyType: "dc", bytes: 10, requests: 1 },
      ],
      prices,
    );
    expect(debits.get("a")).toBe(1000 + 4);
    expect(debits.get("b")).toBe(1);
  });

  it("stays exact for very large datacenter volumes", () => {
    const debits = debitsOf(
      [
        {
          userId: "a",
          day: "2026-01-01",
          domain: "x",
          proxyType: "dc",
          bytes: 9_000_000_000_000_001,
          requests: 1,
        },
      ],
      prices,
    );
    expect(debits.get("a")).toBe(900_000_000_000_001);
  });
});
