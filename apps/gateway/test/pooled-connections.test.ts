import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, rawExchange, type SeededUser, seedUser, startGateway, usageOf } from "./support/harness.ts";

/** What the origin saw of one request: its head as received and the answer it wrote for it. */
interface Exchange {
  path: string;
  received: number;
  sent: number;
}

/**
 * A raw HTTP/1.1 origin that misbehaves on purpose: `/surplus` is answered with a second,
 * unrequested response in the same write; `/late` gets its answer and then, while the connection
 * sits idle, an unsolicited one. Every other path is answered `mine`.
 */
async function startMisbehavingOrigin() {
  const exchanges: Exchange[] = [];
  let connections = 0;
  /** Connections that answered /late and are still open. */
  const lateOpen = new Set<net.Socket>();
  const leak = "HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nSECRET-OF-ONE";
  const server = net.createServer((socket) => {
    connections += 1;
    let pending = "";
    socket.on("data", (chunk: Buffer) => {
      pending += chunk.toString("latin1");
      for (let end = pending.indexOf("\r\n\r\n"); end !== -1; end = pending.indexOf("\r\n\r\n")) {
        const head = pending.slice(0, end + 4);
        pending = pending.slice(end + 4);
        const path = head.split(" ")[1] ?? "";
        const own = `HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n${path === "/surplus" || path === "/late" ? "ok!!" : "mine"}`;
        socket.write(path === "/surplus" ? own + leak : own);
        if (path === "/late") {
          lateOpen.add(socket);
          socket.once("close", () => lateOpen.delete(socket));
          setTimeout(() => socket.write(leak), 100);
        }
        exchanges.push({ path, received: Buffer.byteLength(head, "latin1"), sent: own.length });
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    exchanges,
    connections: () => connections,
    lateOpen: () => lateOpen.size,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let database: TestDatabase;
let gateway: Gateway;
let origin: Awaited<ReturnType<typeof startMisbehavingOrigin>>;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database);
  origin = await startMisbehavingOrigin();
});
afterAll(async () => {
  await gateway.close();
  await origin.close();
  await database.close();
});

function get(user: SeededUser, path: string) {
  return rawExchange(
    gateway.httpPort,
    `GET http://127.0.0.1:${origin.port}${path} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
  );
}

/** The second customer gets its own answer and pays for exactly its own exchange with the origin. */
async function expectOwnAnswerAndBill(second: SeededUser, path: string): Promise<void> {
  const response = await get(second, path);
  expect(response.body).toBe("mine");
  await gateway.flush();
  const own = origin.exchanges.filter((e) => e.path === path);
  expect(own).toHaveLength(1);
  const exchange = own[0] as Exchange;
  expect(await usageOf(database, second.userId)).toEqual([
    { domain: "127.0.0.1", proxyType: "mobile", bytes: exchange.received + exchange.sent, requests: 1 },
  ]);
}

describe("kept-alive target connections shared by customers", () => {
  it("never hands bytes read past one response to the next customer", async () => {
    const first = await seedUser(database, 1_000_000);
    const second = await seedUser(database, 1_000_000);
    expect((await get(first, "/surplus")).body).toBe("ok!!");
    await expectOwnAnswerAndBill(second, "/after-surplus");
  });

  it("never hands bytes that arrived on an idle connection to the next customer", async () => {
    const first = await seedUser(database, 1_000_000);
    const second = await seedUser(database, 1_000_000);
    expect((await get(first, "/late")).body).toBe("ok!!");
    // The unsolicited answer arrives while the connection waits in the pool, and the gateway
    // closes that connection rather than keep it for the next customer.
    await vi.waitFor(() => expect(origin.lateOpen()).toBe(0), { timeout: 5_000, interval: 20 });
    await expectOwnAnswerAndBill(second, "/after-late");
  });

  it("still reuses a connection whose response ended cleanly", async () => {
    const user = await seedUser(database, 1_000_000);
    expect((await get(user, "/a")).body).toBe("mine");
    const opened = origin.connections();
    expect((await get(user, "/b")).body).toBe("mine");
    expect(origin.connections()).toBe(opened);
  });
});
