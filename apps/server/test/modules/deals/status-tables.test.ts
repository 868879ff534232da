import { DEAL_STATUSES, PAYOUT_STATUSES } from "@bytetoll/contracts";
import { inTransaction } from "@bytetoll/db";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StatusTable } from "../../../src/lib/status-table.ts";
import { DEAL_STATUS, DEPOSIT_STATUS, PAYOUT_STATUS } from "../../../src/modules/deals/index.ts";
import {
  moveDealStatus,
  moveDepositStatus,
  movePayoutStatus,
} from "../../../src/modules/deals/status-writes.ts";

let database: TestDatabase;
let userId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.query<{ id: string }>(
    "INSERT INTO users (email) VALUES ('deal-states@example.com') RETURNING id",
  );
  userId = user!.id;
});
afterAll(() => database?.close());

async function dealIn(status: string): Promise<number> {
  const [row] = await database.query<{ id: number }>(
    `INSERT INTO deals (deal_type, title, price_usd_per_gb, status, start_time, end_time, target_gb)
     VALUES ('group_buy', 'Deal', 2, $1, now() - interval '1 hour', now() - interval '1 minute', 10)
     RETURNING id`,
    [status],
  );
  return row!.id;
}

async function depositIn(status: string): Promise<string> {
  const dealId = await dealIn("live");
  const [order] = await database.query<{ id: string }>(
    `INSERT INTO orders (user_id, method, network_type, amount_cents, bytes, payment_status, provider, expires_at)
     VALUES ($1, 'crypto', 'solana', 500, 1000, 'paid', 'sandbox', now()) RETURNING id`,
    [userId],
  );
  await database.query(
    `INSERT INTO deal_deposits (order_id, deal_id, user_id, amount_cents, status)
     VALUES ($1, $2, $3, $4, $5)`,
    [order!.id, dealId, userId, status === "reversed" ? 0 : 500, status],
  );
  return order!.id;
}

async function payoutIn(status: string): Promise<string> {
  const dealId = await dealIn("expired");
  const [row] = await database.query<{ id: string }>(
    `INSERT INTO payouts (user_id, deal_id, kind, amount_cents, wallet_address, status)
     VALUES ($1, $2, 'refund', 500, 'wallet', $3) RETURNING id`,
    [userId, dealId, status],
  );
  return row!.id;
}

interface Case {
  table: StatusTable<string>;
  /** The statuses the database's CHECK constraint allows. */
  stored: readonly string[];
  make: (status: string) => Promise<string | number>;
  read: (id: string | number) => Promise<{ status: string; updated_at: string }>;
  move: (id: string | number, from: string, to: string) => Promise<unknown[]>;
}

const readRow = (table: string, key: string) => async (id: string | number) => {
  const [row] = await database.query<{ status: string; updated_at: string }>(
    `SELECT status, updated_at::text FROM ${table} WHERE ${key} = $1`,
    [id],
  );
  return row!;
};

const CASES: Record<string, Case> = {
  deal: {
    table: DEAL_STATUS as StatusTable<string>,
    stored: DEAL_STATUSES,
    make: dealIn,
    read: readRow("deals", "id"),
    move: (id, from, to) =>
      moveDealStatus(database.db, sql`id = ${id}`, { from: [from as never], to: to as never }),
  },
  deposit: {
    table: DEPOSIT_STATUS as StatusTable<string>,
    stored: ["held", "credited", "refundable", "paid_out", "reversed"],
    make: depositIn,
    read: readRow("deal_deposits", "order_id"),
    move: (id, from, to) =>
      inTransaction(database.db, (tx) =>
        moveDepositStatus(tx, sql`order_id = ${id}`, { from: [from as never], to: to as never }),
      ),
  },
  payout: {
    table: PAYOUT_STATUS as StatusTable<string>,
    stored: PAYOUT_STATUSES,
    make: payoutIn,
    read: readRow("payouts", "id"),
    move: (id, from, to) =>
      inTransaction(database.db, (tx) =>
        movePayoutStatus(tx, String(id), { from: [from as never], to: to as never }),
      ),
  },
};

describe.each(Object.entries(CASES))("a %s's status moves only as its table allows", (_name, c) => {
  it("names every status the database stores, and nothing moves out of a final one", () => {
    expect([...c.table.statuses].sort()).toEqual([...c.stored].sort());
    expect(() => c.table.parse("unheard_of")).toThrow(/unknown/);
  });

  it.each(c.stored.flatMap((from) => c.stored.map((to) => [from, to] as const)))(
    "%s → %s: moved when the table lists it, otherwise refused with nothing changed",
    async (from, to) => {
      const id = await c.make(from);
      const before = await c.read(id);
      if (c.table.canMove(from, to)) {
        expect(await c.move(id, from, to)).toHaveLength(1);
        expect((await c.read(id)).status).toBe(to);
        return;
      }
      await expect(c.move(id, from, to)).rejects.toThrow(`may not move ${from} → ${to}`);
      expect(await c.read(id)).toEqual(before);
    },
  );

  it("leaves a row whose status is not the move's source alone (compare-and-set)", async () => {
    const [source, targets] = Object.entries(c.table.moves).find(([, to]) => to.length > 0)!;
    const actual = c.stored.find((status) => status !== source)!;
    const id = await c.make(actual);
    const before = await c.read(id);
    expect(await c.move(id, source, targets[0]!)).toHaveLength(0);
    expect(await c.read(id)).toEqual(before);
  });
});
