import { execFile } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { promisify } from "node:util";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { type SeededUser, seedUser, startGateway } from "./support/harness.ts";

const run = promisify(execFile);

let database: TestDatabase;
let gateway: Gateway;
let user: SeededUser;
/** A plain Node site that answers every request `401` with `Connection: close` as soon as it has
 * the head, without reading the body: Node then closes the socket with the body unread, which
 * the kernel turns into a reset of the connection the gateway is still uploading on. */
let site: http.Server;
let siteUrl: string;
/** A site that resets the connection as soon as the request head arrives, answering nothing. */
let resetter: net.Server;
let resetterUrl: string;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database);
  user = await seedUser(database, 10_000_000_000);
  site = http.createServer((_request, response) => {
    response.writeHead(401, { "Content-Type": "text/plain", Connection: "close" });
    response.end("unauthorized");
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as net.AddressInfo).port}/upload`;
  resetter = net.createServer((socket) => {
    socket.on("error", () => {});
    socket.once("data", () => socket.resetAndDestroy());
  });
  await new Promise<void>((resolve) => resetter.listen(0, "127.0.0.1", resolve));
  resetterUrl = `http://127.0.0.1:${(resetter.address() as net.AddressInfo).port}/upload`;
});
afterAll(async () => {
  await gateway.close();
  site.closeAllConnections();
  site.close();
  resetter.close();
  await database.close();
});

/** python `requests`, which sends the whole body before it reads the answer: the status it
 * got for each of `tries` uploads of `bytes`, or the name of the error it raised. */
async function requestsUploads(url: string, bytes: number, tries: number): Promise<string[]> {
  const script = `
import sys, requests
proxy = sys.argv[1]
body = b"x" * int(sys.argv[3])
for _ in range(int(sys.argv[4])):
    try:
        r = requests.post(sys.argv[2], data=body, proxies={"http": proxy}, timeout=20)
        print(r.status_code, flush=True)
    except Exception as error:
        print(type(error).__name__, flush=True)
`;
  const proxy = `http://${user.username}:${user.password}@127.0.0.1:${gateway.httpPort}`;
  const { stdout } = await run("/usr/bin/python3", ["-c", script, proxy, url, String(bytes), String(tries)], {
    timeout: 120_000,
  });
  return stdout.trim().split("\n");
}

describe("a site that answers an upload 401 and closes before reading it", () => {
  for (const megabytes of [5, 30]) {
    it(`gets python requests its 401 on every ${megabytes} MB upload, never a 502`, {
      timeout: 120_000,
    }, async () => {
      const tries = megabytes === 5 ? 20 : 10;
      const results = await requestsUploads(siteUrl, megabytes * 1024 * 1024, tries);
      const answered = results.filter((result) => result === "401").length;
      console.info(`${megabytes} MB uploads: ${answered} of ${tries} got the 401 (${results.join(" ")})`);
      expect(results).toEqual(Array(tries).fill("401"));
    });
  }

  it("gets a 502 when the site resets the upload without answering", { timeout: 60_000 }, async () => {
    const results = await requestsUploads(resetterUrl, 5 * 1024 * 1024, 3);
    // The gateway's answer may still be cut by the reset of the upload it stops reading; it is
    // never anything but the 502.
    for (const result of results) expect(["502", "ConnectionError"]).toContain(result);
    expect(results).toContain("502");
  });
});
