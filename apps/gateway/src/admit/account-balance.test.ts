import { describe, expect, it } from "vitest";
import { Tariff } from "../base/tariff.ts";
import {
  AccountBalance,
  CONNECTION_SLACK_BYTES,
  LeaseOvershootError,
  RENEWAL_GRACE_MS,
} from "./account-balance.ts";

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
    // The renewal reads the clock itself, somewhere between these two readings.
    const before = Date.now();
    const renewing = account.renew(() => new Promise<number>((resolve) => (grant = resolve)), bounds);
    const after = Date.now();
    account.charge(600, "mobile");
    // Past the last grant's run-ahead, within the grace: the database is slow, the balance is not dry.
    expect(account.exhausted(before + RENEWAL_GRACE_MS - 1)).toBe(false);
    expect(account.exhausted(after + RENEWAL_GRACE_MS)).toBe(true);
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

  it("refuses a commit past the lease held plus one read each way per connection, what the relay had not reported, and a rounding byte", async () => {
    const { account } = await leased(100);
    // One connection was open: it may have relayed one read each way past the cut, besides what
    // the splice relay had moved before it last told the meter.
    expect(account.commitBound).toBe(2 * 256 * 1024 + 64 * 1024 + 1);
    account.charge(100 + CONNECTION_SLACK_BYTES, "mobile");
    expect(() => account.assertCommit(100 + account.commitBound)).not.toThrow();
    const refused = (() => {
      try {
        account.assertCommit(101 + account.commitBound);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(LeaseOvershootError);
    expect(refused).toMatchObject({ account: "user", granted: 100, debit: 101 + account.commitBound });
    // What the lease held is released; the rest was the run-ahead: nothing is left, nothing owed.
    account.commit(100 + CONNECTION_SLACK_BYTES, 100 + CONNECTION_SLACK_BYTES);
    expect(account.remaining).toBe(0);
    expect(account.exhausted()).toBe(true);
  });

  it("lets a commit bill the run-ahead of a renewal that then granted nothing, and no more", async () => {
    // Asked for 2000, got 1000: running dry, so the run-ahead is the last grant and no grace.
    const account = new AccountBalance("user", tariff);
    await account.renew(async () => 1000, { ...bounds, minBytes: 2000 });
    expect(account.commitBound).toBe(1);
    account.charge(1000, "mobile");
    const renewing = account.renew(async () => 0, bounds);
    account.charge(999, "mobile");
    expect(account.exhausted()).toBe(false);
    await renewing;
    expect(account.exhausted()).toBe(true);
    expect(account.commitBound).toBe(1000 + 1);
    expect(() => account.assertCommit(1000 + 1001)).not.toThrow();
    expect(() => account.assertCommit(1000 + 1002)).toThrow(LeaseOvershootError);
    account.commit(1999, 1999);
    expect(account.remaining).toBe(0);
    // Everything relayed is billed: no earlier run-ahead can reach a commit any more.
    expect(account.commitBound).toBe(1);
  });

  it("lets bytes relayed under a lease reclaimed meanwhile reach the ledger, and no more", async () => {
    const account = new AccountBalance("user", tariff);
    await account.renew(async () => 1000, { ...bounds, minBytes: 2000 });
    account.charge(800, "mobile");
    // Another instance reclaimed the lease while this one could not reach the database.
    account.adopt(0);
    expect(account.exhausted()).toBe(true);
    expect(() => account.assertCommit(801)).not.toThrow();
    expect(() => account.assertCommit(802)).toThrow(LeaseOvershootError);
  });

  it("bounds the grace of a slow renewal in bytes too: at most what the renewal asked for", async () => {
    const small = { minBytes: 1000, maxBytes: 3000 };
    const account = new AccountBalance("user", tariff);
    await account.renew(async () => 1000, small);
    account.charge(1000, "mobile");
    // Spent at once: the renewal asks for the cap, 3000.
    const renewing = account.renew(() => new Promise<number>(() => {}), small);
    account.charge(2999, "mobile");
    expect(account.exhausted()).toBe(false);
    account.charge(1, "mobile");
    expect(account.exhausted()).toBe(true);
    expect(account.commitBound).toBe(3000 + 1);
    void renewing;
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
