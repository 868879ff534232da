import { hashSecret } from "@bytetoll/db";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  basic,
  keptAlive,
  openTunnel,
  rawExchange,
  type SeededUser,
  seedUser,
  startGatewayPair,
  until,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

let database: TestDatabase;
let first: Gateway;
let second: Gateway;
let origin: TestOrigin;

beforeAll(async () => {
  database = await createTestDatabase();
  [first, second] = await startGatewayPair(database);
  origin = await startOrigin();
});
afterAll(async () => {
  await first.close();
  await second.close();
  await origin.close();
  await database.close();
});

function get(gateway: Gateway, user: SeededUser, password = user.password) {
  return rawExchange(
    gateway.httpPort,
    `GET http://127.0.0.1:${origin.port}/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, password)}\r\n\r\n`,
  );
}

async function tunnelOn(gateway: Gateway, user: SeededUser) {
  const socket = await openTunnel(
    gateway.httpPort,
    basic(user.username, user.password),
    `127.0.0.1:${origin.port}`,
  );
  const state = { closed: false };
  socket.on("close", () => {
    state.closed = true;
  });
  socket.on("error", () => {});
  return { socket, state };
}

async function changeAndWatch(user: SeededUser, change: () => Promise<unknown>) {
  const tunnels = [
    await tunnelOn(first, user),
    await tunnelOn(second, user),
    await keptAlive(first.httpPort, user, origin.port),
  ];
  // Both instances have the credential cached.
  for (const gateway of [first, second]) expect((await get(gateway, user)).status).toBe(200);
  const startedAt = Date.now();
  await change();
  await until(
    () => tunnels.every((t) => t.state.closed),
    "the tunnels and the kept-alive connection to close",
  );
  return { tunnels, closedWithinMs: Date.now() - startedAt };
}

describe("a changed or deleted proxy credential", () => {
  it("closes its open tunnels on every instance and refuses the old password at once", async () => {
    const user = await seedUser(database, 10_000_000);
    const { closedWithinMs } = await changeAndWatch(user, () =>
      database.query("UPDATE proxy_credentials SET password_hash = $1 WHERE username = $2", [
        hashSecret("rotated"),
        user.username,
      ]),
    );
    expect(closedWithinMs).toBeLessThan(1_000);
    for (const gateway of [first, second]) {
      const refused = await get(gateway, user);
      expect(refused.status).toBe(407);
      expect(refused.headers["x-bytetoll-error"]).toBe("bad_credentials");
      expect((await get(gateway, user, "rotated")).status).toBe(200);
    }
  });

  it("closes the tunnels of a deleted credential", async () => {
    const user = await seedUser(database, 10_000_000);
    await changeAndWatch(user, () =>
      database.query("DELETE FROM proxy_credentials WHERE username = $1", [user.username]),
    );
    expect((await get(first, user)).status).toBe(407);
  });

  it("leaves other customers' tunnels and unrelated changes alone", async () => {
    const user = await seedUser(database, 10_000_000);
    const bystander = await seedUser(database, 10_000_000);
    const theirs = await tunnelOn(first, bystander);
    const own = await tunnelOn(first, user);
    await database.query("UPDATE proxy_credentials SET use_sticky = true WHERE username = $1", [
      user.username,
    ]);
    await database.query("UPDATE proxy_credentials SET password_hash = $1 WHERE username = $2", [
      hashSecret("rotated"),
      user.username,
    ]);
    await until(() => own.state.closed, "the changed credential's tunnel to close");
    let received = "";
    theirs.socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
    });
    theirs.socket.write("GET / HTTP/1.1\r\nHost: origin\r\n\r\n");
    await until(() => received.includes("hello from origin"), "the bystander's answer");
    expect(theirs.state.closed).toBe(false);
    theirs.socket.destroy();
  });
});
