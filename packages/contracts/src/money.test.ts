import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assertWhole,
  balanceBytesFor,
  bytesForCents,
  centsForBytes,
  costMicros,
  gbToBytes,
  MoneyAssertionError,
  shareOf,
  usdToCents,
  usdToMicros,
} from "./money.ts";

const cents = fc.integer({ min: 0, max: 10_000_000 }); // up to $100,000, the largest order
// Prices as the operator writes them: up to 4 decimals, $0.0001 to $10,000 per GB.
const priceMicros = fc.integer({ min: 1, max: 100_000_000 }).map((tenThousandths) => tenThousandths * 100);
const bytes = fc.integer({ min: 0, max: 2 ** 50 });

describe("bytes bought: rounded down, so a purchase never hands out data that was not paid for", () => {
  it("gives the most whole bytes whose cost fits in what was paid", () => {
    fc.assert(
      fc.property(cents, priceMicros, (paid, price) => {
        const paidMicroBytes = BigInt(paid) * 10_000n * 1_000_000_000n;
        fc.pre(paidMicroBytes / BigInt(price) <= BigInt(Number.MAX_SAFE_INTEGER));
        const bought = BigInt(bytesForCents(paid, price));
        expect(bought * BigInt(price) <= paidMicroBytes).toBe(true);
        expect((bought + 1n) * BigInt(price) > paidMicroBytes).toBe(true);
      }),
    );
  });

  it("never costs more than was paid when priced back", () => {
    fc.assert(
      fc.property(cents, priceMicros, (paid, price) => {
        fc.pre((BigInt(paid) * 10_000_000_000_000n) / BigInt(price) <= BigInt(Number.MAX_SAFE_INTEGER));
        expect(costMicros(bytesForCents(paid, price), price)).toBeLessThanOrEqual(paid * 10_000);
      }),
    );
  });

  it("gives whole GB when the amount is a whole number of GB (a float division lost a byte here)", () => {
    // $33 at $1.10 per GB: the float 3300 × 1e7 / 1.1 is 29,999,999,999.99…; it is 30 GB.
    expect(bytesForCents(3300, usdToMicros(1.1))).toBe(30e9);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), priceMicros, (gb, price) => {
        fc.pre((gb * price) % 10_000 === 0); // the amount is whole cents
        expect(bytesForCents((gb * price) / 10_000, price)).toBe(gb * 1e9);
      }),
    );
  });
});

describe("what bytes cost: rounded up, so used data is never priced below what it used", () => {
  it("is the least whole micro-dollar amount that covers the bytes", () => {
    fc.assert(
      fc.property(bytes, priceMicros, (used, price) => {
        fc.pre(BigInt(used) * BigInt(price) <= BigInt(Number.MAX_SAFE_INTEGER) * 1_000_000_000n);
        const cost = BigInt(costMicros(used, price));
        const exact = BigInt(used) * BigInt(price);
        expect(cost * 1_000_000_000n >= exact).toBe(true);
        expect((cost - 1n) * 1_000_000_000n < exact).toBe(true);
      }),
    );
  });

  it("converts datacenter bytes to balance bytes rounded up, and mobile bytes one to one", () => {
    fc.assert(
      fc.property(bytes, priceMicros, priceMicros, (used, dc, mobile) => {
        const owed = balanceBytesFor(BigInt(used), dc, mobile);
        expect(owed * BigInt(mobile) >= BigInt(used) * BigInt(dc)).toBe(true);
        expect((owed - 1n) * BigInt(mobile) < BigInt(used) * BigInt(dc)).toBe(true);
        expect(balanceBytesFor(BigInt(used), mobile, mobile)).toBe(BigInt(used));
      }),
    );
  });
});

describe("the price of whole GB: rounded up to the cent, so the order then gives every byte asked for", () => {
  it("charges $3 × N at the list price, and enough at an odd one", () => {
    expect(centsForBytes(100 * 1e9, usdToMicros(3))).toBe(30_000);
    // 7 GB at $1.1111/GB is $7.7777: 777 cents would buy 6.9930… GB, so 778.
    expect(centsForBytes(7e9, usdToMicros(1.1111))).toBe(778);
  });

  it("always buys at least the bytes, and a cent less never does", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 50_000_000 }),
        (gb, micros) => {
          const cents = centsForBytes(gb * 1e9, micros);
          expect(bytesForCents(cents, micros)).toBeGreaterThanOrEqual(gb * 1e9);
          if (cents > 0) expect(bytesForCents(cents - 1, micros)).toBeLessThan(gb * 1e9);
        },
      ),
    );
  });
});

describe("amounts people type: to the nearest unit, because a double only approximates a decimal", () => {
  it("reads every 2-decimal USD amount as its exact cents", () => {
    fc.assert(
      fc.property(cents, (value) => {
        expect(usdToCents(value / 100)).toBe(value);
      }),
    );
  });

  it("reads every GB amount with up to 9 decimals as its exact bytes", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e14, max: 1e14 }), (value) => {
        expect(gbToBytes(value / 1e9)).toBe(value);
      }),
    );
    expect(gbToBytes(0.3)).toBe(300_000_000);
  });

  it("refuses what is not a number instead of writing NaN", () => {
    expect(() => usdToCents(Number.NaN)).toThrow(MoneyAssertionError);
    expect(() => gbToBytes(Number.POSITIVE_INFINITY)).toThrow(MoneyAssertionError);
  });
});

describe("a share of a total (a partial refund): rounded down, never more than the total", () => {
  it("takes back at most the total, all of it for the whole, and more for a larger part", () => {
    const amount = fc.integer({ min: 0, max: 10_000_000 }).map((value) => value / 1e6);
    fc.assert(
      fc.property(bytes, amount, amount, fc.integer({ min: 1, max: 10_000_000 }), (total, a, b, of) => {
        const whole = of / 100;
        const [small, large] = a <= b ? [a, b] : [b, a];
        expect(shareOf(total, large, whole)).toBeLessThanOrEqual(total);
        expect(shareOf(total, small, whole)).toBeLessThanOrEqual(shareOf(total, large, whole));
        expect(shareOf(total, whole, whole)).toBe(total);
      }),
    );
    expect(shareOf(1000, 1, 0)).toBe(0);
  });
});

describe("money arguments that break a rule stop the operation", () => {
  it.each([0.5, Number.NaN, 2 ** 53, -Number.EPSILON])(
    "refuses %s where whole units are required",
    (value) => {
      expect(() => assertWhole(value, "bytes")).toThrow(MoneyAssertionError);
      expect(() => bytesForCents(value, 3_000_000)).toThrow(MoneyAssertionError);
    },
  );

  it("refuses a result a double cannot hold exactly instead of rounding it", () => {
    // $100,000 at $0.0001 per GB is 10^18 bytes.
    expect(() => bytesForCents(10_000_000, 100)).toThrow(MoneyAssertionError);
  });

  it("refuses a price of zero or below instead of dividing by it", () => {
    expect(() => bytesForCents(100, 0)).toThrow(MoneyAssertionError);
    expect(() => costMicros(100, -1)).toThrow(MoneyAssertionError);
  });
});
