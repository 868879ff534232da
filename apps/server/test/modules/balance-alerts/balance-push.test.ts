import { BALANCE_UPDATED_EVENT, type BalanceUpdatedEvent } from "@bytetoll/contracts";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectRealtime } from "../../helpers/realtime-client.ts";
import { signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t?.close();
});

/** A signed-in client in its own room, recording every balance.updated it receives. */
async function listen(token: string, userId: string) {
  const socket = await connectRealtime(t.app, token);
  sockets.push(socket);
  const received: BalanceUpdatedEvent[] = [];
  socket.on(BALANCE_UPDATED_EVENT, (event: BalanceUpdatedEvent) => received.push(event));
  expect(
    await socket.timeout(5_000).emitWithAck("subscribe", { channel: `topup-transactions.${userId}` }),
  ).toEqual({
    ok: true,
  });
  return received;
}

const setBalance = (userId: string, bytes: number) =>
  t.database.query("UPDATE users SET balance_bytes = $2 WHERE id = $1", [userId, bytes]);

describe("balance.updated", () => {
  it("pushes each balance change to its owner's room, at most once a second, ending on the latest figure", async () => {
    const alice = await signIn(t.app, "push-alice@example.com");
    const bob = await signIn(t.app, "push-bob@example.com");
    const aliceEvents = await listen(alice.token, alice.id);
    const bobEvents = await listen(bob.token, bob.id);

    await setBalance(alice.id, 880_000_000);
    await expect
      .poll(() => aliceEvents.at(-1), { timeout: 5_000 })
      .toEqual({ balance_gb: 0.88, balance_bytes: 880_000_000 });

    // A burst of flushes within one second: the room hears at most one more, then the last state.
    const burstStart = aliceEvents.length;
    for (const bytes of [700_000_000, 500_000_000, 300_000_000, 0]) await setBalance(alice.id, bytes);
    await expect
      .poll(() => aliceEvents.at(-1), { timeout: 5_000 })
      .toEqual({ balance_gb: 0, balance_bytes: 0 });
    expect(aliceEvents.length - burstStart).toBeLessThanOrEqual(2);
    expect(bobEvents).toEqual([]);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    "sends the balance again once the change feed is back after an outage (a change may have been missed)",
    async () => {
      const carol = await signIn(t.app, "push-carol@example.com");
      const events = await listen(carol.token, carol.id);
      const { balances } = t.app.changeFeed.caches;
      await t.database.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
      );
      await vi.waitFor(() => expect(balances.live).toBe(false), { timeout: 2_000, interval: 5 });
      // Written while nobody listens: no notification reaches this instance.
      await setBalance(carol.id, 123_000_000);
      await expect
        .poll(() => events.at(-1), { timeout: 10_000 })
        .toEqual({ balance_gb: 0.12, balance_bytes: 123_000_000 });
    },
  );
});
