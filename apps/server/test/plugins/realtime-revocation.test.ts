import type { AddressInfo } from "node:net";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Order } from "../../src/modules/orders/schemas.ts";
import type { App } from "../../src/types.ts";
import { bearer } from "../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { type Customer, createOrder, customer } from "../modules/orders/helpers.ts";

/**
 * A revoked session must not keep listening to its owner's orders: its sockets are closed on
 * every instance. Two instances over one database, as at scale.
 */
let a: TestApp;
let b: TestApp;
const urls = new Map<App, string>();
const sockets: Socket[] = [];

async function listen(t: TestApp) {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  urls.set(t.app, `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
}

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({}, { database: a.database });
  await Promise.all([listen(a), listen(b)]);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await b?.close();
  await a?.close();
});

/** A connected client of `app`, subscribed to its user's orders, recording what it hears. */
async function subscribed(app: App, who: Customer) {
  const socket = connect(urls.get(app)!, {
    path: "/socket.io",
    transports: ["websocket"],
    reconnection: false,
    auth: { token: who.token },
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  const ack = await socket
    .timeout(5_000)
    .emitWithAck("subscribe", { channel: `topup-transactions.${who.id}` });
  expect(ack).toEqual({ ok: true });
  const heard: Order[] = [];
  socket.on("topup-transaction.updated", (payload: { topup_transaction: Order }) =>
    heard.push(payload.topup_transaction),
  );
  const disconnected = new Promise<string>((resolve) => socket.once("disconnect", resolve));
  return { socket, heard, disconnected };
}

const WITHIN_MS = 3_000;
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} after ${WITHIN_MS} ms`)), WITHIN_MS),
    ),
  ]);
}

const logout = (app: App, who: Customer, path = "/auth/logout") =>
  app.inject({ method: "POST", url: path, headers: who.headers });

async function apiTokenCustomer(app: App, who: Customer): Promise<Customer> {
  const token = (await app.inject({ method: "GET", url: "/account/api-token", headers: who.headers })).json()
    .data.token as string;
  return { id: who.id, token, headers: bearer(token) };
}

/** An order event the still-authorised `witness` hears: anything meant for the closed socket
 * would have been delivered by then. */
async function orderHeardBy(app: App, who: Customer, witness: { heard: Order[] }) {
  const order = await createOrder(app, who, { amount: 3, network_type: "base" });
  await vi.waitFor(() => expect(witness.heard.map((o) => o.order_id)).toContain(order.order_id), {
    timeout: 3_000,
    interval: 20,
  });
  return order;
}

describe("sockets of a revoked session", () => {
  it("are closed when the session logs out; the owner's other session keeps hearing orders", async () => {
    const laptop = await customer(a.app, "socket-logout@example.com");
    const phone = await customer(a.app, "socket-logout@example.com");
    const revoked = await subscribed(a.app, laptop);
    const kept = await subscribed(a.app, phone);

    expect((await logout(a.app, laptop)).statusCode).toBe(200);
    expect(await within(revoked.disconnected, "the revoked socket was still open")).toBe(
      "io server disconnect",
    );

    await orderHeardBy(a.app, phone, kept);
    expect(revoked.heard).toEqual([]);
    expect(kept.socket.connected).toBe(true);
  });

  it("are closed on the other instance too", async () => {
    const who = await customer(a.app, "socket-elsewhere@example.com");
    const onB = await subscribed(b.app, who);
    expect((await logout(a.app, who)).statusCode).toBe(200);
    expect(await within(onB.disconnected, "the socket on the other instance was still open")).toBe(
      "io server disconnect",
    );
  });

  it("are all closed by sign-out everywhere, on both instances; the API token's socket stays", async () => {
    const first = await customer(a.app, "socket-everywhere@example.com");
    const second = await customer(a.app, "socket-everywhere@example.com");
    const script = await apiTokenCustomer(a.app, first);
    const onA = await subscribed(a.app, first);
    const onB = await subscribed(b.app, second);
    const viaToken = await subscribed(a.app, script);

    expect((await logout(a.app, first, "/auth/logout-all")).statusCode).toBe(200);
    await within(Promise.all([onA.disconnected, onB.disconnected]), "a signed-out socket was still open");

    await orderHeardBy(a.app, script, viaToken);
    expect([...onA.heard, ...onB.heard]).toEqual([]);
    expect(viaToken.socket.connected).toBe(true);
  });

  it("refuses the revoked token when the client tries to connect again", async () => {
    const who = await customer(a.app, "socket-again@example.com");
    await logout(a.app, who);
    await expect(subscribed(b.app, who)).rejects.toThrow("Unauthorized");
  });
});
