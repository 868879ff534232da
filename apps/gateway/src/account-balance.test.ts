import { describe, expect, it } from "vitest";
import { AccountBalance, RENEWAL_GRACE_MS } from "./account-balance.ts";
import { Tariff } from "./tariff.ts";

const tariff = new Tariff({ pricePerGbUsd: 3, dcPricePerGbUsd: 0.3 });
const bounds = { minBytes: 1000, maxBytes: 1_000_000 };

/** An account holding a lease of `bytes`, and a count of its flows that were closed. */
async function leased(bytes: number) {
  const account = new AccountBalance("user", tariff);
  await account.renew(async () => bytes, bounds);
  const closed = { count: 0 };
  account.addFlow({ abort: () => (closed.count += 1) });
  return { account, closed };
}

describe("AccountBalance", () => {
  it("is exhausted once its charges use up the lease, and only then closes its flows", async () => {
    const { account, closed } = await leased(1000);
    account.charge(999, "mobile");
    account.enforce();
    expect(account.exhausted()).toBe(false);
    expect(closed.count).toBe(0);
    account.charge(1, "mobile");
    expect(account.exhausted()).toBe(true);
    account.enforce();
    expect(closed.count).toBe(1);
  });

  it("charges datacenter bytes at the tariff's price ratio", async () => {
    const { account } = await leased(1000);
    account.charge(5000, "dc");
    expect(account.remaining).toBeCloseTo(500, 9);
    expect(account.exhausted()).toBe(false);
  });

  it("lets a renewal on its way run ahead by what the last one granted, no further when that one fell short", async () => {
    // Asked for 2000 (the bounds' minimum), got 1000: the balance is running dry.
    const account = new AccountBalance("user", tariff);
    await account.renew(async () => 1000, { ...bounds, minBytes: 2000 });
    const closed = { count: 0 };
    account.addFlow({ abort: () => (closed.count += 1) });
    account.charge(1500, "mobile");
    let grant: (bytes: number) => void = () => {};
    const renewing = account.renew(() => new Promise<number>((resolve) => (grant = resolve)), bounds);
    expect(account.exhausted()).toBe(false);
    account.charge(600, "mobile");
    expect(account.exhausted()).toBe(true);
    grant(5000);
    await renewing;
    expect(account.remaining).toBe(3900);
    expect(closed.count).toBe(0);
  });

  it("waits up to RENEWAL_GRACE_MS for a slow renewal past the run-ahead when the last grant was in full", async () => {
    const { account, closed } = await leased(1000);
    account.charge(1500, "mobile");
    let grant: (bytes: number) => void = () => {};
    const renewing = account.renew(() => new Promise<number>((resolve) => (grant = resolve)), bounds);
    const started = Date.now();
    account.charge(600, "mobile");
    // Past the last grant's run-ahead, within the grace: the database is slow, the balance is not dry.
    expect(account.exhausted(started + RENEWAL_GRACE_MS - 1)).toBe(false);
    expect(account.exhausted(started + RENEWAL_GRACE_MS + 1)).toBe(true);
    grant(5000);
    await renewing;
    expect(account.remaining).toBe(3900);
    expect(closed.count).toBe(0);
  });

  it("commits a batch: its ledger debit leaves the lease, its estimate leaves the uncommitted debit", async () => {
    const { account } = await leased(10_000);
    const rows = [
      { userId: "user", proxyType: "mobile" as const, bytes: 1000 },
      { userId: "user", proxyType: "dc" as const, bytes: 31 },
    ];
    for (const row of rows) account.charge(row.bytes, row.proxyType);
    expect(account.remaining).toBeCloseTo(10_000 - 1003.1, 9);
    account.commit(tariff.debits(rows).get("user") as number, tariff.estimates(rows).get("user") as number);
    // The ledger rounded 3.1 up to 4: the lease shrank by the whole debit and nothing is pending.
    expect(account.remaining).toBe(10_000 - 1004);
  });

  it("never holds less than nothing after a commit", async () => {
    const { account } = await leased(100);
    account.commit(500, 0);
    expect(account.remaining).toBe(0);
    expect(account.exhausted()).toBe(true);
  });

  it("after a failed renewal waits before asking again", async () => {
    const account = new AccountBalance("user", tariff);
    await expect(account.renew(() => Promise.reject(new Error("database down")), bounds)).rejects.toThrow(
      "database down",
    );
    expect(account.dueForRenewal()).toBe(false);
    await expect(account.renew(async () => 1000, bounds)).rejects.toThrow("unreachable");
  });

  it("renews when less than half of the last lease is left", async () => {
    const { account } = await leased(1000);
    expect(account.dueForRenewal()).toBe(false);
    account.charge(501, "mobile");
    expect(account.low).toBe(true);
    expect(account.dueForRenewal()).toBe(true);
  });
});
