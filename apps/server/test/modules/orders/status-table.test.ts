import { randomUUID } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createOrdersRepository,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  type OrderRow,
  type OrderStatus,
  type OrdersRepository,
  publicStatus,
} from "../../../src/modules/orders/index.ts";

let database: TestDatabase;
let repository: OrdersRepository;
let userId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  repository = createOrdersRepository(database);
  const [user] = await database.query<{ id: string }>(
    "INSERT INTO users (email) VALUES ('table@example.com') RETURNING id",
  );
  userId = user!.id;
});
afterAll(() => database?.close());

/** An order stored in `status`, as the writers leave one: due now when `due`, credited when paid
 * or refunded (refunded: all of it taken back). */
async function orderIn(status: OrderStatus, due: boolean): Promise<OrderRow> {
  const credited = status === "paid" || status === "refunded" ? 1000 : 0;
  const [row] = await database.query<{ id: string }>(
    `INSERT INTO orders (user_id, method, network_type, amount_cents, bytes, payment_status, provider,
                         credited_bytes, reversed_bytes, expires_at)
     VALUES ($1, $2, $3, 300, 1000, $4, 'sandbox', $5, $6, now() + make_interval(mins => $7))
     RETURNING id`,
    [
      userId,
      status === "awaiting_method" ? null : "crypto",
      status === "awaiting_method" ? null : "solana",
      status,
      credited,
      status === "refunded" ? credited : 0,
      due ? -1 : 60,
    ],
  );
  return (await repository.find(row!.id))!;
}

/** Every write of the repository that may set a status, as its callers make it. */
const WRITES: Record<string, (row: OrderRow) => Promise<unknown>> = {
  choosePayment: (row) =>
    repository.choosePayment(row.id, {
      method: "crypto",
      networkType: "base",
      provider: "sandbox",
      providerPaymentId: `p-${randomUUID()}`,
      payAddress: "0xabc",
      qrCode: null,
      priceAmountCents: 300,
      paymentToken: "USDC (Base)",
    }),
  recordCredit: (row) =>
    repository.transaction((tx) =>
      repository.recordCredit(tx, row, { toCredited: 1000, balanceBytesAfter: null, payinHash: null }),
    ),
  recordReversal: (row) =>
    repository.transaction((tx) =>
      repository.recordReversal(tx, row, { toReversed: Number(row.creditedBytes), balanceBytesAfter: null }),
    ),
  recordPartialPayment: (row) =>
    repository.transaction((tx) =>
      repository.recordPartialPayment(tx, row.id, { note: "n", payinHash: null }),
    ),
  closeUncredited: (row) => repository.transaction((tx) => repository.closeUncredited(tx, row)),
  fail: (row) => repository.transaction((tx) => repository.closeOpen(tx, row.id, "failed")),
  expire: (row) => repository.transaction((tx) => repository.closeOpen(tx, row.id, "expired")),
  cancel: (row) => repository.cancelOpen(row.id),
  expireDue: () => repository.expireDue(userId),
  markDepositPaid: (row) => repository.transaction((tx) => repository.markDepositPaid(tx, row.id, null)),
  markDepositRefunded: (row) => repository.transaction((tx) => repository.markDepositRefunded(tx, row.id)),
};

describe("an order's status moves only as the table allows", () => {
  it("knows every status, shows each under an API status, and keeps refunded closed", () => {
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...ORDER_STATUSES].sort());
    expect(ORDER_TRANSITIONS.refunded).toEqual([]);
    expect(publicStatus("awaiting_method")).toBe("waiting");
    for (const status of ORDER_STATUSES.filter((s) => s !== "awaiting_method")) {
      expect(publicStatus(status)).toBe(status);
    }
  });

  it.each(ORDER_STATUSES.flatMap((status) => [true, false].map((due) => [status, due] as const)))(
    "no write moves an order in %s (due: %s) anywhere the table does not list",
    async (status, due) => {
      const moves: string[] = [];
      for (const [name, write] of Object.entries(WRITES)) {
        const row = await orderIn(status, due);
        const outcome = await write(row).then(
          () => "done",
          (error: Error) => `refused: ${error.message}`,
        );
        const after = (await repository.find(row.id))!.paymentStatus as OrderStatus;
        if (after !== status) moves.push(`${name}: ${status} → ${after}`);
        if (after !== status) {
          expect(ORDER_TRANSITIONS[status] as readonly string[], `${name} (${outcome})`).toContain(after);
        }
        // A refused write changed nothing at all.
        if (outcome !== "done") expect(after, name).toBe(status);
      }
      // Open orders do move: the table is not vacuously kept by writes that never apply.
      if (status === "awaiting_method" || status === "waiting") expect(moves.length).toBeGreaterThan(0);
    },
  );
});
