import type { AddressInfo } from "node:net";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../src/modules/orders/schemas.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { type Customer, createOrder, customer, sandboxPay } from "../modules/orders/helpers.ts";

let t: TestApp;
let url: string;
let alice: Customer;
let bob: Customer;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  alice = await customer(t.app, "alice@example.com");
  bob = await customer(t.app, "bob@example.com");
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t?.close();
});

/** A connected client, or the connect_error message. */
async function open(token?: unknown): Promise<Socket> {
  const socket = connect(url, {
    path: "/socket.io",
    transports: ["websocket"],
    reconnection: false,
    ...(token === undefined ? {} : { auth: { token } }),
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", (error) => reject(error));
  });
  return socket;
}

const subscribe = (socket: Socket, channel: unknown) =>
  socket.timeout(5_000).emitWithAck("subscribe", { channel });

function nextUpdate(socket: Socket): Promise<Order> {
  return new Promise((resolve) =>
    socket.once("topup-transaction.updated", (payload: { topup_transaction: Order }) =>
      resolve(payload.topup_transaction),
    ),
  );
}

describe("realtime channels", () => {
  it("lets the owner join topup-transactions.{userId} and nobody else", async () => {
    const aliceSocket = await open(alice.token);
    expect(await subscribe(aliceSocket, `topup-transactions.${alice.id}`)).toEqual({ ok: true });
    expect(await subscribe(aliceSocket, `topup-transactions.${bob.id}`)).toEqual({
      ok: false,
      message: "Forbidden",
    });
    expect(await subscribe(aliceSocket, "deals")).toEqual({ ok: true });
    expect(await subscribe(aliceSocket, "admin")).toEqual({ ok: false, message: "Unknown channel" });
    expect(await subscribe(aliceSocket, 42)).toEqual({ ok: false, message: "channel is required" });

    const anonymous = await open();
    expect(await subscribe(anonymous, "deals")).toEqual({ ok: true });
    expect(await subscribe(anonymous, `topup-transactions.${alice.id}`)).toEqual({
      ok: false,
      message: "Unauthorized",
    });
  });

  it("refuses a handshake with a bad token", async () => {
    await expect(open("not-a-real-token-at-all")).rejects.toThrow("Unauthorized");
    await expect(open({ nested: true })).rejects.toThrow("Unauthorized");
  });

  it("pushes topup-transaction.updated to the owner on every change, and only to the owner", async () => {
    const aliceSocket = await open(alice.token);
    await subscribe(aliceSocket, `topup-transactions.${alice.id}`);
    const bobSocket = await open(bob.token);
    await subscribe(bobSocket, `topup-transactions.${bob.id}`);
    const bobHeard: Order[] = [];
    bobSocket.on("topup-transaction.updated", (payload: { topup_transaction: Order }) =>
      bobHeard.push(payload.topup_transaction),
    );

    const created = nextUpdate(aliceSocket);
    const order = await createOrder(t.app, alice, { amount: 15, network_type: "solana" });
    expect(await created).toEqual(order);

    const paid = nextUpdate(aliceSocket);
    await sandboxPay(t.app, order.order_id);
    expect(await paid).toMatchObject({
      order_id: order.order_id,
      payment_status: "paid",
      balance_gb_after: 6,
    });

    // Bob's own event arrives after anything of Alice's would have, so his list is complete.
    const bobsOwn = nextUpdate(bobSocket);
    await createOrder(t.app, bob, { amount: 3, network_type: "base" });
    await bobsOwn;
    expect(bobHeard.map((o) => o.user_id)).toEqual([bob.id]);
  });

  it("stops delivering after unsubscribe", async () => {
    const socket = await open(alice.token);
    const channel = `topup-transactions.${alice.id}`;
    await subscribe(socket, channel);
    expect(await socket.timeout(5_000).emitWithAck("unsubscribe", { channel })).toEqual({ ok: true });
    let heard = 0;
    socket.on("topup-transaction.updated", () => heard++);
    const watcher = await open(alice.token);
    await subscribe(watcher, channel);
    const seen = nextUpdate(watcher);
    await createOrder(t.app, alice, { amount: 3, network_type: "base" });
    await seen;
    // The same broadcast reached the watcher; a round trip to the server flushes anything in flight.
    await subscribe(socket, "deals");
    expect(heard).toBe(0);
  });
});
