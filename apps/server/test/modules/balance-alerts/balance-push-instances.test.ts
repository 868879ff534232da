import { BALANCE_UPDATED_EVENT, type BalanceUpdatedEvent } from "@bytetoll/contracts";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRealtime } from "../../helpers/realtime-client.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { customerWithoutEmail } from "../orders/helpers.ts";

// With REDIS_URL the instances also share Socket.IO's Redis adapter, as in production: a push
// sent to the whole room from every instance would then arrive once per instance.
const shared: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {};
/** Longer than one balance-handling interval (1 s) plus the change feed's delivery. */
const SETTLED_MS = 1_600;

let first: TestApp;
let second: TestApp;
const sockets: Socket[] = [];

beforeAll(async () => {
  first = await createTestApp(shared);
  second = await createTestApp(shared, { database: first.database });
  await Promise.all([first, second].map((t) => t.app.listen({ port: 0, host: "127.0.0.1" })));
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await second?.close();
  await first?.close();
});

async function listenOn(t: TestApp, token: string, userId: string): Promise<BalanceUpdatedEvent[]> {
  const socket = await connectRealtime(t.app, token);
  sockets.push(socket);
  const received: BalanceUpdatedEvent[] = [];
  socket.on(BALANCE_UPDATED_EVENT, (event: BalanceUpdatedEvent) => received.push(event));
  await socket.timeout(5_000).emitWithAck("subscribe", { channel: `topup-transactions.${userId}` });
  return received;
}

describe("balance.updated with two server instances", () => {
  it("reaches the owner's sockets on either instance once per change", async () => {
    const alice = await customerWithoutEmail(
      first.database,
      first.config.JWT_SECRET,
      "instances@example.com",
    );
    const onFirst = await listenOn(first, alice.token, alice.id);
    const onSecond = await listenOn(second, alice.token, alice.id);

    await first.database.query("UPDATE users SET balance_bytes = 420000000 WHERE id = $1", [alice.id]);
    const expected = { balance_gb: 0.42, balance_bytes: 420_000_000 };
    await expect.poll(() => onSecond.at(-1), { timeout: 5_000 }).toEqual(expected);
    await expect.poll(() => onFirst.at(-1), { timeout: 5_000 }).toEqual(expected);
    await new Promise((resolve) => setTimeout(resolve, SETTLED_MS));
    expect(onFirst).toEqual([expected]);
    expect(onSecond).toEqual([expected]);
  });
});
