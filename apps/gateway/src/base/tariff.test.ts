import { describe, expect, it } from "vitest";
import { Tariff } from "./tariff.ts";

const tariff = new Tariff({ pricePerGbUsd: 3, dcPricePerGbUsd: 0.3 });

describe("ledger debits", () => {
  it("charges mobile 1:1 and datacenter at the price ratio, rounded up once per user", () => {
    const debits = tariff.debits([
      { userId: "a", proxyType: "mobile", bytes: 1000 },
      { userId: "a", proxyType: "dc", bytes: 15 },
      { userId: "a", proxyType: "dc", bytes: 16 },
      { userId: "b", proxyType: "dc", bytes: 10 },
    ]);
    expect(debits.get("a")).toBe(1000 + 4);
    expect(debits.get("b")).toBe(1);
  });

  it("stays exact for very large datacenter volumes", () => {
    const debits = tariff.debits([{ userId: "a", proxyType: "dc", bytes: 9_000_000_000_000_001 }]);
    expect(debits.get("a")).toBe(900_000_000_000_001);
  });

  it("reads prices in whole micro-dollars, so a ratio that is no exact float still debits exactly", () => {
    const thirds = new Tariff({ pricePerGbUsd: 3, dcPricePerGbUsd: 1 });
    expect(thirds.debits([{ userId: "a", proxyType: "dc", bytes: 3_000_000 }]).get("a")).toBe(1_000_000);
    expect(thirds.debits([{ userId: "a", proxyType: "dc", bytes: 3_000_001 }]).get("a")).toBe(1_000_001);
  });
});

describe("live estimate", () => {
  it("uses the same prices as the debit", () => {
    expect(tariff.estimate(1000, "mobile")).toBe(1000);
    expect(tariff.estimate(1000, "dc")).toBeCloseTo(100, 9);
    const rows = [
      { userId: "a", proxyType: "mobile" as const, bytes: 1000 },
      { userId: "a", proxyType: "dc" as const, bytes: 31 },
    ];
    const estimate = tariff.estimates(rows).get("a") as number;
    expect(estimate).toBeCloseTo(1003.1, 9);
    expect(tariff.debits(rows).get("a")).toBe(Math.ceil(estimate));
  });
});
