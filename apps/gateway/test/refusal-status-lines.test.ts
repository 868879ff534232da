import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, curl, seedUser, startGateway } from "./support/harness.ts";

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

/** The status line a CONNECT gets back, as wget, Go, requests and aiohttp show it. */
function statusLine(authority: string, authorization?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(gateway.httpPort, "127.0.0.1");
    let head = "";
    socket.on("data", (chunk) => {
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n");
      if (end !== -1) {
        socket.destroy();
        resolve(head.slice(0, end));
      }
    });
    socket.on("error", reject);
    const auth = authorization ? `Proxy-Authorization: ${authorization}\r\n` : "";
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
  });
}

describe("a refused CONNECT's status line says why", () => {
  it("names the reason in the reason phrase, for clients that show nothing else", async () => {
    const paying = await seedUser(database, 1_000_000_000);
    const empty = await seedUser(database, 0);
    expect(await statusLine("example.com:443")).toBe("HTTP/1.1 407 Proxy Authentication Required");
    expect(await statusLine("example.com:443", basic(paying.username, "wrong"))).toBe(
      "HTTP/1.1 407 Bad Proxy Credentials",
    );
    expect(await statusLine("127.0.0.1:443", basic(empty.username, empty.password))).toBe(
      "HTTP/1.1 402 Balance Exhausted",
    );
    expect(await statusLine("169.254.169.254:80", basic(paying.username, paying.password))).toBe(
      "HTTP/1.1 403 Destination Forbidden",
    );
    // A port nothing listens on (loopback is open to this gateway): the site refused.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await statusLine(`127.0.0.1:${port}`, basic(paying.username, paying.password))).toBe(
      "HTTP/1.1 502 Connection Refused",
    );
  });

  it("is what curl reports for a refused tunnel", async () => {
    const empty = await seedUser(database, 0);
    const result = await curl([
      "-x",
      `http://${empty.username}:${empty.password}@127.0.0.1:${gateway.httpPort}`,
      "-p",
      "-v",
      "http://127.0.0.1:1/",
    ]).catch((error: { stderr?: string }) => ({ status: 0, body: error.stderr ?? "" }));
    expect(result.body).toContain("402 Balance Exhausted");
  });
});
