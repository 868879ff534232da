import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceBytes, type Customer, customer, GB } from "../orders/helpers.ts";
import { audit, type ConsoleApp, createConsoleApp, tokenHeaders } from "./helpers.ts";

const ALICE = "key-alice@example.com";
const BOB = "key-bob@example.com";

let t: ConsoleApp;
let alice: Customer;
let bob: Customer;
beforeAll(async () => {
  t = await createConsoleApp();
  alice = await customer(t.app, ALICE);
  bob = await customer(t.app, BOB);
});
afterAll(() => t?.close());

const REUSED =
  "This Idempotency-Key was already used for a different credit (another customer, amount or note). Use a new key for a new credit.";

function credit(key: string, payload: { email: string; gb: number; note: string }) {
  return t.app.inject({
    method: "POST",
    url: "/admin/credits",
    headers: { ...tokenHeaders, "idempotency-key": key },
    payload,
  });
}

async function balances() {
  return [await balanceBytes(t.app, alice), await balanceBytes(t.app, bob)];
}

describe("an admin credit's Idempotency-Key stands for one credit: its customer, amount and note", () => {
  it("replays the same credit as a no-op, and refuses the key for another customer, amount or note with 422", async () => {
    const first = await credit("ticket-7", { email: ALICE, gb: 2, note: "goodwill" });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ message: "Balance adjusted", data: { delta_bytes: 2 * GB } });
    const before = await balances();
    const auditRows = (await audit(t.app, "action=customer.credit")).length;

    const replay = await credit("ticket-7", { email: ALICE, gb: 2, note: "goodwill" });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ message: "Already applied", data: { delta_bytes: 0 } });

    for (const other of [
      { email: BOB, gb: 2, note: "goodwill" },
      { email: ALICE, gb: 3, note: "goodwill" },
      { email: ALICE, gb: 2, note: "another ticket" },
    ]) {
      const response = await credit("ticket-7", other);
      expect(response.statusCode, JSON.stringify(other)).toBe(422);
      expect(response.json()).toEqual({ success: false, message: REUSED });
    }
    expect(await balances()).toEqual(before);
    expect(await audit(t.app, "action=customer.credit")).toHaveLength(auditRows);
  });

  it("holds the same rule on POST /admin/customers/{id}/credit, whichever endpoint used the key first", async () => {
    await credit("ticket-8", { email: ALICE, gb: 1, note: "refund of a bad day" });
    const before = await balances();
    const byId = (who: Customer, gb: number, note: string) =>
      t.app.inject({
        method: "POST",
        url: `/admin/customers/${who.id}/credit`,
        headers: { ...tokenHeaders, "idempotency-key": "ticket-8" },
        payload: { gb, note },
      });
    expect((await byId(alice, 1, "refund of a bad day")).json().message).toBe("Already applied");
    const other = await byId(bob, 1, "refund of a bad day");
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json().message).toBe(REUSED);
    expect(await balances()).toEqual(before);
  });

  it("credits exactly one of two customers sent the same key at once; the other is refused", async () => {
    const before = await balances();
    const responses = await Promise.all([
      credit("ticket-9", { email: ALICE, gb: 1, note: "race" }),
      credit("ticket-9", { email: BOB, gb: 1, note: "race" }),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 422]);
    const after = await balances();
    expect(after[0]! - before[0]! + after[1]! - before[1]!).toBe(GB);
  });
});
