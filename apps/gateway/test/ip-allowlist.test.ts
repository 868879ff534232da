import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  curl,
  eventually,
  rawExchange,
  type SeededUser,
  seedUser,
  startGatewayPair,
  until,
  usageOf,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

let database: TestDatabase;
let gateways: [Gateway, Gateway];
let origin: TestOrigin;
let owner: SeededUser;

beforeAll(async () => {
  database = await createTestDatabase();
  gateways = await startGatewayPair(database);
  origin = await startOrigin();
  owner = await seedUser(database, 100_000_000);
}, 30_000);
afterAll(async () => {
  for (const gateway of gateways ?? []) await gateway.close();
  await origin?.close();
  await database?.close();
});

const site = () => `http://127.0.0.1:${origin.port}/bytes/100`;
/** A request without credentials from 127.0.0.1; status 0 when the gateway closed it unanswered
 * (a connection admitted just before its address left the list is cut). */
const noCredentials = (gateway: Gateway) =>
  rawExchange(gateway.httpPort, `GET ${site()} HTTP/1.1\r\nHost: 127.0.0.1:${origin.port}\r\n\r\n`).catch(
    () => ({ status: 0 }),
  );

/** The account's list, its entries proven (`proven` false: all waiting for their proof). */
async function setAllowlist(userId: string, ranges: string[], proven = true): Promise<void> {
  await database.query("DELETE FROM ip_allowlist WHERE user_id = $1", [userId]);
  for (const range of ranges) {
    await database.query(
      `INSERT INTO ip_allowlist (user_id, range, proven_at) VALUES ($1, $2, ${proven ? "now()" : "NULL"})`,
      [userId, range],
    );
  }
}

describe("connections without credentials from an allowlisted address", () => {
  it("are refused until the address is listed, then admitted as the owner on every instance", async () => {
    for (const gateway of gateways) expect((await noCredentials(gateway)).status).toBe(407);
    await setAllowlist(owner.userId, ["127.0.0.1/32"]);
    const listedAt = Date.now();
    for (const gateway of gateways) {
      await eventually(
        async () => (await noCredentials(gateway)).status === 200,
        "the listed address admitted",
      );
    }
    // Caches outlive the test: only the change feed can have told both instances, within a second.
    expect(Date.now() - listedAt).toBeLessThan(1_000);
    await gateways[0].flush();
    await gateways[1].flush();
    expect((await usageOf(database, owner.userId))[0]?.requests).toBeGreaterThanOrEqual(2);
  });

  it("work over HTTP CONNECT, 8443 and SOCKS5 without authentication, with curl", async () => {
    await setAllowlist(owner.userId, ["127.0.0.1/32"]);
    const [gateway] = gateways;
    await eventually(async () => (await noCredentials(gateway)).status === 200, "the address admitted");
    const url = `http://127.0.0.1:${origin.port}/echo`;
    expect((await curl(["-p", "-x", `http://127.0.0.1:${gateway.httpPort}`, url])).status).toBe(200);
    expect(
      (await curl(["--proxy-insecure", "-x", `https://127.0.0.1:${gateway.httpsPort}`, url])).status,
    ).toBe(200);
    expect((await curl(["-x", `socks5h://127.0.0.1:${gateway.socksPort}`, url])).status).toBe(200);
  });

  it("admit only the listed addresses", async () => {
    await setAllowlist(owner.userId, ["127.0.0.2/32"]);
    const [gateway] = gateways;
    const from2 = () =>
      curl(["--interface", "127.0.0.2", "-x", `http://127.0.0.1:${gateway.httpPort}`, site()]);
    // The change is one replacement, but a gateway may see the removal and the addition apart.
    await eventually(
      async () => (await noCredentials(gateway)).status === 407 && (await from2()).status === 200,
      "127.0.0.1 no longer admitted and 127.0.0.2 admitted",
    );
    expect((await from2()).status).toBe(200);
    const socksFrom1 = curl(["-x", `socks5h://127.0.0.1:${gateway.socksPort}`, site()]);
    await expect(socksFrom1).rejects.toThrow();
  });

  it("lose a tunnel admitted by an address once the address leaves the list", async () => {
    await setAllowlist(owner.userId, ["127.0.0.1/32"]);
    const [gateway] = gateways;
    await eventually(async () => (await noCredentials(gateway)).status === 200, "the address admitted");
    const tunnel = net.connect(gateway.httpPort, "127.0.0.1");
    const closed = { value: false };
    tunnel.on("close", () => {
      closed.value = true;
    });
    tunnel.on("error", () => {});
    const head = await new Promise<string>((resolve) => {
      let text = "";
      tunnel.on("data", (chunk: Buffer) => {
        text += chunk.toString("latin1");
        if (text.includes("\r\n\r\n")) resolve(text);
      });
      tunnel.write(`CONNECT 127.0.0.1:${origin.port} HTTP/1.1\r\nHost: 127.0.0.1:${origin.port}\r\n\r\n`);
    });
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    await setAllowlist(owner.userId, []);
    await until(() => closed.value, "the tunnel to close");
  });

  it("are refused while the entry waits for its proof, and admitted once it is proven", async () => {
    const squatter = await seedUser(database, 100_000_000);
    await setAllowlist(owner.userId, []);
    await setAllowlist(squatter.userId, ["127.0.0.0/24"], false);
    const [gateway] = gateways;
    await gateway.flush();
    // A write after the claim that the feed announces: once it is seen, so was the claim.
    await setAllowlist(owner.userId, ["127.0.0.2/32"]);
    const from2 = () =>
      curl(["--interface", "127.0.0.2", "-x", `http://127.0.0.1:${gateway.httpPort}`, site()]);
    await eventually(async () => (await from2()).status === 200, "the owner's proven address admitted");
    expect((await noCredentials(gateway)).status).toBe(407);
    await database.query("UPDATE ip_allowlist SET proven_at = now() WHERE user_id = $1", [squatter.userId]);
    await eventually(async () => (await noCredentials(gateway)).status === 200, "the proven range admitted");
    // The narrower proven entry keeps its address: 127.0.0.2 stays the owner's.
    await gateway.flush();
    const requestsOf = async (userId: string) =>
      (await usageOf(database, userId)).reduce((sum, row) => sum + Number(row.requests), 0);
    const [ownerBefore, squatterBefore] = [await requestsOf(owner.userId), await requestsOf(squatter.userId)];
    expect((await from2()).status).toBe(200);
    await gateway.flush();
    expect(await requestsOf(owner.userId)).toBe(ownerBefore + 1);
    expect(await requestsOf(squatter.userId)).toBe(squatterBefore);
    await setAllowlist(squatter.userId, []);
  });
});
