import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { type Customer, createOrder, customer, sandboxPay } from "../orders/helpers.ts";
import { eventually, nothingLeftToSend, startReceiver } from "./receiver.ts";

const FAST = { EGRESS_ALLOW: "127.0.0.0/8", WEBHOOK_RETRY_BASE_MS: "100", WEBHOOK_POLL_MS: "50" };

let t: TestApp;
let alice: Customer;
let bob: Customer;
beforeAll(async () => {
  t = await createTestApp(FAST);
  alice = await customer(t.app, "alice-hooks@example.com");
  bob = await customer(t.app, "bob-hooks@example.com");
});
afterAll(async () => {
  await t?.close();
});

const create = (who: Customer, payload: unknown) =>
  t.app.inject({ method: "POST", url: "/webhooks", headers: who.headers, payload: payload as object });
const deliveries = async (who: Customer, id: string) =>
  (await t.app.inject({ method: "GET", url: `/webhooks/${id}/deliveries`, headers: who.headers })).json()
    .data;

describe("webhook endpoints", () => {
  it("shows the secret in full once, then only its last 4 characters", async () => {
    const created = await create(alice, { url: "https://93.184.215.14/bytetoll", events: ["order.paid"] });
    expect(created.statusCode, created.body).toBe(200);
    const endpoint = created.json().data;
    expect(endpoint.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const list = (await t.app.inject({ method: "GET", url: "/webhooks", headers: alice.headers })).json()
      .data;
    expect(list).toEqual([{ ...endpoint, secret: endpoint.secret.slice(-4) }]);
    expect(
      (await t.app.inject({ method: "DELETE", url: `/webhooks/${endpoint.id}`, headers: alice.headers }))
        .statusCode,
    ).toBe(200);
  });

  it("refuses bad URLs, unknown events, internal addresses and a sixth endpoint, changing nothing", async () => {
    const bad = [
      { url: "not a url", events: ["order.paid"] },
      { url: "ftp://hooks.example.com/", events: ["order.paid"] },
      { url: "https://user:pw@hooks.example.com/", events: ["order.paid"] },
      { url: "https://hooks.example.com/", events: ["order.shipped"] },
      { url: "https://93.184.215.14/", events: [] },
      { url: "http://10.0.0.5/hook", events: ["ping"] },
      { url: "http://169.254.169.254/latest/meta-data", events: ["ping"] },
      { url: "http://[::1]:8080/", events: ["ping"] },
    ];
    for (const payload of bad) {
      const answer = await create(bob, payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      expect(answer.json()).toMatchObject({ success: false, message: expect.any(String) });
    }
    for (let i = 0; i < 5; i++)
      expect((await create(bob, { url: `https://93.184.215.14/${i}`, events: ["ping"] })).statusCode).toBe(
        200,
      );
    // A private address says how an operator opens it; the gateway's own kind of refusal does not.
    const privateUrl = await create(bob, { url: "http://10.0.0.5/hook", events: ["ping"] });
    expect(privateUrl.json().message).toMatch(/^The webhook URL is not allowed: Destination 10\.0\.0\.5 is /);
    expect(privateUrl.json().message).toContain(
      ". An operator can allow it with EGRESS_ALLOW_TARGETS=10.0.0.5/32:80 (CIDR:port, comma-separated) on the API instances.",
    );
    const uniqueLocal = await create(bob, { url: "http://[fc00::5]:8080/", events: ["ping"] });
    expect(uniqueLocal.json().message).toContain("EGRESS_ALLOW_TARGETS=[fc00::5]/128:8080 ");
    // This host's own addresses are never opened: no advice.
    const own = await create(bob, { url: "http://[::1]:8080/", events: ["ping"] });
    expect(own.json().message).not.toContain("EGRESS_ALLOW_TARGETS");
    const sixth = await create(bob, { url: "https://93.184.215.14/6", events: ["ping"] });
    expect(sixth.statusCode).toBe(409);
    const list = (await t.app.inject({ method: "GET", url: "/webhooks", headers: bob.headers })).json().data;
    expect(list).toHaveLength(5);
    for (const endpoint of list)
      await t.app.inject({ method: "DELETE", url: `/webhooks/${endpoint.id}`, headers: bob.headers });
  });

  it("answers 404 for another customer's endpoint, and leaves it alone", async () => {
    const endpoint = (await create(alice, { url: "https://93.184.215.14/a", events: ["ping"] })).json().data;
    for (const [method, url] of [
      ["DELETE", `/webhooks/${endpoint.id}`],
      ["POST", `/webhooks/${endpoint.id}/test`],
      ["GET", `/webhooks/${endpoint.id}/deliveries`],
      ["DELETE", "/webhooks/not-a-uuid"],
    ] as const) {
      const answer = await t.app.inject({ method, url, headers: bob.headers });
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = (await t.app.inject({ method: "GET", url: "/webhooks", headers: alice.headers })).json()
      .data;
    expect(list.map((e: { id: string }) => e.id)).toContain(endpoint.id);
    await t.app.inject({ method: "DELETE", url: `/webhooks/${endpoint.id}`, headers: alice.headers });
    expect((await t.app.inject({ method: "GET", url: "/webhooks" })).statusCode).toBe(401);
  });
});

describe("deliveries to a real receiver", () => {
  it("signs a test ping so the documented Node.js snippet accepts it, and logs it as delivered", async () => {
    let secret = "";
    const receiver = await startReceiver(() => secret);
    try {
      const endpoint = (await create(alice, { url: receiver.url, events: ["order.paid"] })).json().data;
      secret = endpoint.secret;
      const test = await t.app.inject({
        method: "POST",
        url: `/webhooks/${endpoint.id}/test`,
        headers: alice.headers,
      });
      expect(test.statusCode, test.body).toBe(200);
      await eventually(
        "the ping",
        () => receiver.received.length,
        (n) => n === 1,
      );
      const [ping] = receiver.received;
      expect(ping?.verified).toBe(true);
      expect(ping?.json).toMatchObject({ id: test.json().data.event_id, type: "ping" });
      expect(ping?.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const log = await eventually(
        "the log",
        () => deliveries(alice, endpoint.id),
        (rows) => rows[0]?.status === "delivered",
      );
      expect(log[0]).toMatchObject({
        event: "ping",
        attempts: 1,
        next_attempt_at: null,
        last_status_code: 200,
      });
      // A forged body under the same signature is refused by the snippet.
      const forged = ping ? ping.body.replace("ping", "pong") : "";
      const { documentedVerifier } = await import("./receiver.ts");
      expect(documentedVerifier()(forged, ping?.signature ?? "", secret)).toBe(false);
      await t.app.inject({ method: "DELETE", url: `/webhooks/${endpoint.id}`, headers: alice.headers });
    } finally {
      await receiver.close();
    }
  });

  it("sends order.paid once for a paid order, to the endpoints subscribed to it", async () => {
    let secret = "";
    const receiver = await startReceiver(() => secret);
    try {
      const endpoint = (
        await create(alice, { url: receiver.url, events: ["order.paid", "order.refunded"] })
      ).json().data;
      secret = endpoint.secret;
      const order = await createOrder(t.app, alice, { amount: 15, network_type: "solana" });
      expect((await sandboxPay(t.app, order.order_id)).statusCode).toBe(200);
      expect((await sandboxPay(t.app, order.order_id)).statusCode).toBe(200);
      await eventually(
        "order.paid",
        () => receiver.received.length,
        (n) => n >= 1,
      );
      await nothingLeftToSend(t.database, receiver.url);
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]?.verified).toBe(true);
      expect(receiver.received[0]?.json).toMatchObject({
        type: "order.paid",
        data: { order_id: order.order_id },
      });
      await t.app.inject({ method: "DELETE", url: `/webhooks/${endpoint.id}`, headers: alice.headers });
    } finally {
      await receiver.close();
    }
  });

  it("retries a failed delivery with the same event id until answered 2xx, then never again", async () => {
    const answers = [500, 503];
    let secret = "";
    const receiver = await startReceiver(
      () => secret,
      () => answers.shift() ?? 204,
    );
    try {
      const endpoint = (await create(alice, { url: receiver.url, events: ["ping"] })).json().data;
      secret = endpoint.secret;
      await t.app.inject({ method: "POST", url: `/webhooks/${endpoint.id}/test`, headers: alice.headers });
      const log = await eventually(
        "the retries",
        () => deliveries(alice, endpoint.id),
        (rows) => rows[0]?.status === "delivered",
      );
      expect(log[0]).toMatchObject({ attempts: 3, last_status_code: 204 });
      expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(1);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      await nothingLeftToSend(t.database, receiver.url);
      expect(receiver.received).toHaveLength(3);
      await t.app.inject({ method: "DELETE", url: `/webhooks/${endpoint.id}`, headers: alice.headers });
    } finally {
      await receiver.close();
    }
  });

  it("counts a receiver that does not answer within 10 s as failed and retries the same event", async () => {
    const answers: Array<number | "hang"> = ["hang"];
    let secret = "";
    const receiver = await startReceiver(
      () => secret,
      () => answers.shift() ?? 200,
    );
    try {
      const endpoint = (await create(alice, { url: receiver.url, events: ["ping"] })).json().data;
      secret = endpoint.secret;
      const started = Date.now();
      await t.app.inject({ method: "POST", url: `/webhooks/${endpoint.id}/test`, headers: alice.headers });
      const log = await eventually(
        "the retry after the timeout",
        () => deliveries(alice, endpoint.id),
        (rows) => rows[0]?.status === "delivered",
        40_000,
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
      expect(log[0]).toMatchObject({ attempts: 2, last_status_code: 200 });
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[0]?.json.id).toBe(receiver.received[1]?.json.id);
      await t.app.inject({ method: "DELETE", url: `/webhooks/${endpoint.id}`, headers: alice.headers });
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it("refuses at send time an endpoint that no longer passes the egress rules", async () => {
    const receiver = await startReceiver(() => "");
    // Only the strict instance sends meanwhile: the allowing one would deliver the ping itself.
    await t.app.jobs.stop();
    const strict = await createTestApp({ WEBHOOK_POLL_MS: "50" }, { database: t.database });
    try {
      const endpoint = (await create(alice, { url: receiver.url, events: ["ping"] })).json().data;
      // Without EGRESS_ALLOW the same loopback URL is refused when saved.
      const refused = await strict.app.inject({
        method: "POST",
        url: "/webhooks",
        headers: alice.headers,
        payload: { url: receiver.url, events: ["ping"] },
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().message).toMatch(/loopback/);
      const test = await strict.app.inject({
        method: "POST",
        url: `/webhooks/${endpoint.id}/test`,
        headers: bearer(alice.token),
      });
      expect(test.statusCode).toBe(200);
      const failed = await eventually(
        "the refused attempt",
        async () =>
          (
            await strict.app.inject({
              method: "GET",
              url: `/webhooks/${endpoint.id}/deliveries`,
              headers: alice.headers,
            })
          ).json().data,
        (rows) => rows[0]?.attempts >= 1 && rows[0]?.last_error,
      );
      expect(failed[0].last_error).toMatch(/loopback/);
      expect(receiver.received).toHaveLength(0);
      await t.app.inject({ method: "DELETE", url: `/webhooks/${endpoint.id}`, headers: alice.headers });
    } finally {
      await strict.close();
      t.app.jobs.start();
      await receiver.close();
    }
  });
});
