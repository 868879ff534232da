import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { defaultGatewayConfig } from "@bytetoll/egress";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Billing, createBilling } from "../src/gateway-parts.ts";
import { balanceOf, type SeededUser, seedUser, usageOf } from "./support/harness.ts";

const BALANCE = 1_000_000_000;
const LEASE_MAX = 64 * 1024 * 1024;

let database: TestDatabase;
let stateDir: string;
let billing: Billing;
const logged: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  stateDir = mkdtempSync(join(tmpdir(), "bytetoll-overshoot-"));
  const logger = pino(
    { level: "error" },
    { write: (line: string) => logged.push(JSON.parse(line) as Record<string, unknown>) },
  );
  billing = createBilling(database, { ...defaultGatewayConfig, stateDir, leaseMaxBytes: LEASE_MAX }, logger);
});
afterAll(async () => {
  await billing.leases.releaseAll();
  await database.close();
  rmSync(stateDir, { recursive: true, force: true });
});

/** Bytes the meter counts for the user, as a relay does (the row, and the account's charge),
 * without the cut a relay gets when the lease runs out: what a metering bug would do. */
function meterPastTheCut(user: SeededUser, bytes: number): void {
  billing.meter.row(user.userId, null, "overshoot.test", "mobile").bytes += bytes;
  billing.accounts.accountFor(user.userId).charge(bytes, "mobile");
}

async function ledgerEntries(user: SeededUser): Promise<number> {
  const [row] = await database.query<{ n: string }>(
    "SELECT count(*) AS n FROM ledger_entries WHERE user_id = $1 AND kind = 'usage'",
    [user.userId],
  );
  return Number(row?.n);
}

const overshoots = async () =>
  (await billing.metrics.leaseOvershoots.get()).values.reduce((sum, value) => sum + value.value, 0);

describe("a lease commit bills at most what was granted plus the bound", () => {
  it("commits a batch at the bound; refuses one past it (logged, counted, nothing written, still pending) until a grant covers it", async () => {
    const exact = await seedUser(database, BALANCE);
    const account = billing.accounts.accountFor(exact.userId);
    expect(await billing.leases.admit(account)).toBe(true);
    const granted = account.remaining;
    expect(granted).toBeGreaterThan(0);
    // Exactly the lease plus the bound (no connection, no renewal: the rounding byte).
    meterPastTheCut(exact, granted + account.commitBound);
    expect(await billing.usage.flush()).toBe(true);
    expect(await balanceOf(database, exact.userId)).toBe(BALANCE - granted - 1);
    expect(await overshoots()).toBe(0);

    const over = await seedUser(database, BALANCE);
    const overAccount = billing.accounts.accountFor(over.userId);
    expect(await billing.leases.admit(overAccount)).toBe(true);
    const held = overAccount.remaining;
    const debit = held + overAccount.commitBound + 1;
    meterPastTheCut(over, debit);
    expect(await billing.usage.flush()).toBe(false);

    const refusal = logged.find((line) => line.account === over.userId);
    expect(refusal).toMatchObject({ level: 50, granted: held, debit, bound: 1 });
    expect(await overshoots()).toBe(1);
    expect(await ledgerEntries(over)).toBe(0);
    expect(await balanceOf(database, over.userId)).toBe(BALANCE);
    expect(await usageOf(database, over.userId)).toEqual([]);
    const [claimed] = await database.query<{ n: string }>(
      "SELECT count(*) AS n FROM usage_batches WHERE id = $1",
      [refusal?.batchId],
    );
    expect(Number(claimed?.n)).toBe(0);
    expect(billing.usage.pendingBatches()).toBe(1);
    const journal = readFileSync(join(stateDir, "gateway-usage", "usage-journal.ndjson"), "utf8");
    expect(journal).toContain(String(refusal?.batchId));
    expect(journal).toContain(String(debit));

    // A renewal that covers what was relayed: the same batch commits, once, in full.
    expect(await billing.leases.admit(overAccount)).toBe(true);
    expect(await billing.usage.flush()).toBe(true);
    expect(billing.usage.pendingBatches()).toBe(0);
    expect(await ledgerEntries(over)).toBe(1);
    expect(await balanceOf(database, over.userId)).toBe(BALANCE - debit);
    expect(await usageOf(database, over.userId)).toEqual([
      { domain: "overshoot.test", proxyType: "mobile", bytes: debit, requests: 0 },
    ]);
  });
});
