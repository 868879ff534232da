import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, rawExchange, seedUser, startGateway, usageOf } from "./support/harness.ts";

let database: TestDatabase;
let gateway: Gateway;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database);
});
afterAll(async () => {
  await gateway.close();
  await database.close();
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("a destination that cannot be reached", () => {
  it("is refused with 502 and counted as no request, for plain HTTP as for CONNECT", async () => {
    const user = await seedUser(database, 1_000_000);
    const target = `127.0.0.1:${await closedPort()}`;
    const auth = `Proxy-Authorization: ${basic(user.username, user.password)}\r\n`;
    for (const head of [
      `GET http://${target}/ HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`,
      `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`,
    ]) {
      const response = await rawExchange(gateway.httpPort, head);
      expect(response.status).toBe(502);
      expect(response.headers["x-bytetoll-error"]).toBe("upstream_failed");
    }
    await gateway.flush();
    expect(await usageOf(database, user.userId)).toEqual([]);
  });
});
