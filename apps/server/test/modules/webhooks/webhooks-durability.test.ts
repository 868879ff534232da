import { createTestDatabase } from "@bytetoll/db/testing";
import { describe, expect, it } from "vitest";
import { createTestApp, createTwoInstances } from "../../helpers/test-app.ts";
import { customer } from "../orders/helpers.ts";
import { eventually, startReceiver } from "./receiver.ts";

const FAST = { EGRESS_ALLOW: "127.0.0.0/8", WEBHOOK_RETRY_BASE_MS: "100", WEBHOOK_POLL_MS: "50" };
const postgres = process.env.DATABASE_URL;
/** How long a claimed attempt may take to reach the receiver on loopback. */
const ATTEMPTS_ARRIVE = { timeout: 5_000, interval: 20 };

describe("webhook deliveries survive a restart", () => {
  it("a retry due when the app stopped is delivered once by the app started on the same database", async () => {
    const database = await createTestDatabase();
    let secret = "";
    let up = false;
    const receiver = await startReceiver(
      () => secret,
      () => (up ? 200 : 500),
    );
    let first = await createTestApp(FAST, { database });
    try {
      const alice = await customer(first.app, "restart-hooks@example.com");
      const endpoint = (
        await first.app.inject({
          method: "POST",
          url: "/webhooks",
          headers: alice.headers,
          payload: { url: receiver.url, events: ["ping"] },
        })
      ).json().data;
      secret = endpoint.secret;
      await first.app.inject({
        method: "POST",
        url: `/webhooks/${endpoint.id}/test`,
        headers: alice.headers,
      });
      await eventually(
        "two failed attempts",
        () => receiver.received.length,
        (n) => n >= 2,
      );
      await first.close();
      const failedBefore = receiver.received.length;
      up = true;
      first = await createTestApp(FAST, { database });
      const log = await eventually(
        "the retry after the restart",
        async () =>
          (
            await first.app.inject({
              method: "GET",
              url: `/webhooks/${endpoint.id}/deliveries`,
              headers: alice.headers,
            })
          ).json().data,
        (rows) => rows[0]?.status === "delivered",
      );
      // Delivered, so nothing is left to claim: once every claimed attempt has reached the
      // receiver, no further request can come.
      await expect.poll(() => receiver.received.length, ATTEMPTS_ARRIVE).toBe(log[0].attempts);
      expect(receiver.received).toHaveLength(failedBefore + 1);
      expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(1);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      expect(log[0].attempts).toBe(failedBefore + 1);
    } finally {
      await first.close();
      await database.close();
      await receiver.close();
    }
  });
});

describe("webhooks on two instances over one PostgreSQL database", () => {
  it.skipIf(!postgres)("each event reaches each endpoint exactly once, retries included", async () => {
    const instances = await createTwoInstances(postgres as string, "bytetoll_hooks", 12, FAST);
    const secrets = ["", ""];
    let calls = 0;
    // Every third answer fails, so retries race between the instances too.
    const receivers = await Promise.all(
      [0, 1].map((i) =>
        startReceiver(
          () => secrets[i] as string,
          () => (++calls % 3 === 0 ? 502 : 200),
        ),
      ),
    );
    try {
      const { one, two } = instances;
      const alice = await customer(one.app, "two-instances-hooks@example.com");
      const endpoints = [];
      for (const [i, receiver] of receivers.entries()) {
        const created = await one.app.inject({
          method: "POST",
          url: "/webhooks",
          headers: alice.headers,
          payload: { url: receiver.url, events: ["ping", "order.paid"] },
        });
        endpoints.push(created.json().data);
        secrets[i] = created.json().data.secret;
      }
      const raised = [];
      for (let n = 0; n < 10; n++) {
        raised.push(
          ...(await Promise.all(
            [one, two].map((app) =>
              app.app.webhooks.service.emit({
                userId: alice.id,
                type: "order.paid",
                key: `order.paid:test-${n}`,
                data: { n },
              }),
            ),
          )),
        );
      }
      const eventIds = raised.filter((id): id is string => id !== null);
      // Both instances raised each key: the key lets only one of them record it.
      expect(eventIds).toHaveLength(10);
      for (const receiver of receivers) {
        await eventually(
          "every event answered 2xx",
          () => new Set(receiver.received.map((r) => r.json.id)).size,
          (n) => n === 10,
        );
      }
      for (const endpoint of endpoints) {
        await eventually(
          "every delivery recorded as delivered",
          async () =>
            (
              await two.app.inject({
                method: "GET",
                url: `/webhooks/${endpoint.id}/deliveries`,
                headers: alice.headers,
              })
            ).json().data,
          (rows) => rows.length === 10 && rows.every((row: { status: string }) => row.status === "delivered"),
        );
      }
      const deliveries = await instances.database.query<{ attempts: number }>(
        "SELECT attempts FROM webhook_deliveries",
      );
      const attempts = deliveries.reduce((sum, row) => sum + Number(row.attempts), 0);
      // Every request was one claimed attempt (all are delivered, so none is left to claim): once
      // they have all arrived, each event must have been answered 2xx exactly once.
      await expect
        .poll(() => receivers[0]!.received.length + receivers[1]!.received.length, ATTEMPTS_ARRIVE)
        .toBe(attempts);
      for (const receiver of receivers) {
        expect(receiver.received.every((r) => r.verified)).toBe(true);
        const successes = receiver.received.filter((r) => r.answered === 200).map((r) => r.json.id);
        expect(successes.sort()).toEqual([...eventIds].sort());
      }
    } finally {
      await instances.close();
      for (const receiver of receivers) await receiver.close();
    }
  });
});
