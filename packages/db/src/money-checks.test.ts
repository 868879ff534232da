import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationsFolder } from "./client.ts";
import { type BlankDatabase, blankDatabase, migrationsBefore } from "./migration-install.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";

let database: TestDatabase;
let userId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.query<{ id: string }>(
    "INSERT INTO users (email) VALUES ('checks@example.com') RETURNING id",
  );
  userId = user!.id;
});
afterAll(async () => {
  await database.close();
});

const ORDER_COLUMNS =
  "user_id, method, network_type, amount_cents, bytes, provider, credited_bytes, reversed_bytes";

function insertOrder(values: Partial<Record<string, string | number | null>>) {
  const row: Record<string, string | number | null | undefined> = {
    method: "crypto",
    network_type: "solana",
    amount_cents: 300,
    bytes: 1e9,
    provider: "sandbox",
    credited_bytes: 0,
    reversed_bytes: 0,
    ...values,
  };
  return database.query(
    `INSERT INTO orders (${ORDER_COLUMNS}, payment_status, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + interval '1 hour')`,
    [
      userId,
      row.method,
      row.network_type,
      row.amount_cents,
      row.bytes,
      row.provider,
      row.credited_bytes,
      row.reversed_bytes,
      row.payment_status ?? "waiting",
    ],
  );
}

const insertEntry = (kind: string, delta: number) =>
  database.query(
    "INSERT INTO ledger_entries (user_id, kind, reference, delta_bytes) VALUES ($1, $2, $3, $4)",
    [userId, kind, `check:${randomBytes(6).toString("hex")}`, delta],
  );

describe("the database refuses an order money code must never write", () => {
  it("takes a well-formed order, paid and partly refunded", async () => {
    await expect(
      insertOrder({ payment_status: "paid", credited_bytes: 1e9, reversed_bytes: 5e8 }),
    ).resolves.toBeDefined();
  });

  it.each([
    ["an unknown status", { payment_status: "settled" }, "orders_status_check"],
    ["an unknown method", { method: "cash" }, "orders_method_check"],
    ["an unknown provider", { provider: "paypal" }, "orders_provider_check"],
    ["an unknown network", { network_type: "tron" }, "orders_network_check"],
    ["a negative amount", { amount_cents: -1 }, "orders_amounts_check"],
    ["more credited than bought", { credited_bytes: 1e9 + 1 }, "orders_credited_check"],
    ["more taken back than credited", { credited_bytes: 10, reversed_bytes: 11 }, "orders_reversed_check"],
    [
      "an order awaiting its method that has one",
      { payment_status: "awaiting_method", network_type: null },
      "orders_method_chosen_check",
    ],
    ["a waiting order with no method", { method: null, network_type: null }, "orders_method_chosen_check"],
  ])("refuses %s", async (_name, values, constraint) => {
    await expect(insertOrder(values)).rejects.toThrow(constraint);
  });
});

describe("the database refuses a ledger entry of an unknown kind or the wrong sign", () => {
  it.each([
    ["purchase", 1],
    ["bonus", 1],
    ["deposit", 1],
    ["usage", -1],
    ["refund", -1],
    ["chargeback", -1],
    ["adjustment", 5],
    ["adjustment", -5],
  ])("takes a %s of %d bytes", async (kind, delta) => {
    await expect(insertEntry(kind, delta)).resolves.toBeDefined();
  });

  it.each([
    ["gift", 1, "ledger_kind_check"],
    ["purchase", -1, "ledger_sign_check"],
    ["purchase", 0, "ledger_sign_check"],
    ["deposit", -1, "ledger_sign_check"],
    ["bonus", 0, "ledger_sign_check"],
    ["usage", 1, "ledger_sign_check"],
    ["refund", 1, "ledger_sign_check"],
    ["chargeback", 0, "ledger_sign_check"],
  ])("refuses a %s of %d bytes", async (kind, delta, constraint) => {
    await expect(insertEntry(kind, delta)).rejects.toThrow(constraint);
  });
});

/** An install at migration 0026 with `orders` rows (as SQL value lists after user_id) and a ledger. */
async function installBefore0027(orders: string[]): Promise<BlankDatabase> {
  const blank = await blankDatabase();
  const folder = migrationsBefore("0027_money-checks");
  try {
    await blank.migrate(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  await blank.query(
    "INSERT INTO users (id, email) VALUES ('00000000-0000-4000-8000-000000000001', 'old@example.com')",
  );
  for (const values of orders) {
    await blank.query(`INSERT INTO orders (id, user_id, ${ORDER_COLUMNS.slice(9)}, payment_status, expires_at)
      VALUES (${values}, now())`);
  }
  await blank.query(`INSERT INTO ledger_entries (user_id, kind, reference, delta_bytes) VALUES
    ('00000000-0000-4000-8000-000000000001', 'purchase', 'order:a:1000', 1000),
    ('00000000-0000-4000-8000-000000000001', 'refund', 'order:a:400', -400),
    ('00000000-0000-4000-8000-000000000001', 'adjustment', 'admin:k', -5)`);
  return blank;
}

const USER = "'00000000-0000-4000-8000-000000000001'";
const GOOD_ORDER = `'00000000-0000-4000-8000-00000000000a', ${USER}, 'crypto', NULL, 300, 1000, 'sandbox', 1000, 400, 'paid'`;
const BAD_ORDER = `'00000000-0000-4000-8000-00000000000b', ${USER}, 'card', NULL, 300, 1000, 'stripe', 1000, 1001, 'refunded'`;

// Migrating a blank PGlite from scratch takes tens of seconds on a shared CPU.
describe("migration 0027 on an existing install", { timeout: 120_000 }, () => {
  it("keeps every existing row, then refuses a bad one", async () => {
    const install = await installBefore0027([GOOD_ORDER]);
    try {
      await install.migrate(migrationsFolder);
      const [orders] = await install.query(
        "SELECT count(*)::int AS n, sum(reversed_bytes)::int AS r FROM orders",
      );
      const [ledger] = await install.query(
        "SELECT count(*)::int AS n, sum(delta_bytes)::int AS s FROM ledger_entries",
      );
      expect(orders).toEqual({ n: 1, r: 400 });
      expect(ledger).toEqual({ n: 3, s: 595 });
      await expect(
        install.query(`INSERT INTO orders (id, user_id, ${ORDER_COLUMNS.slice(9)}, payment_status, expires_at)
        VALUES (${BAD_ORDER}, now())`),
      ).rejects.toThrow("orders_reversed_check");
    } finally {
      await install.close();
    }
  });

  it("stops with a message naming an order that breaks a rule, and changes nothing", async () => {
    const install = await installBefore0027([GOOD_ORDER, BAD_ORDER]);
    try {
      const failure = await install.migrate(migrationsFolder).then(
        () => undefined,
        (error: Error) => error,
      );
      // drizzle wraps the database's error: the operator reads the cause.
      expect(String((failure?.cause as Error | undefined)?.message ?? failure?.message)).toMatch(
        /migration 0027: these orders break the money rules.*00000000-0000-4000-8000-00000000000b/,
      );
      const constraints = await install.query(
        "SELECT conname FROM pg_constraint WHERE conname LIKE 'orders_%_check' OR conname LIKE 'ledger_%_check'",
      );
      expect(constraints).toEqual([]);
    } finally {
      await install.close();
    }
  });
});
