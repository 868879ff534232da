import { execFile } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { promisify } from "node:util";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import fc from "fast-check";
import { SocksProxyAgent } from "socks-proxy-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  balanceOf,
  curl,
  eventually,
  type SeededUser,
  seedUser,
  startGateway,
  usageOf,
} from "./support/harness.ts";
import { randomBody, sha256, startOrigin, type TestOrigin } from "./support/origin.ts";
import { connectV4, greeting, userPass } from "./support/socks-bytes.ts";

const run = promisify(execFile);
const BALANCE = 1_000_000_000;

let database: TestDatabase;
let gateway: Gateway;
let origin: TestOrigin;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database, { headTimeoutMs: 10_000 });
  origin = await startOrigin();
});
afterAll(async () => {
  await gateway.close();
  await origin.close();
  await database.close();
});

const socksUrl = (user: SeededUser, scheme = "socks5h") =>
  `${scheme}://${user.username}:${encodeURIComponent(user.password)}@127.0.0.1:${gateway.socksPort}`;

/** The bytes a raw SOCKS5 client reads back for the messages it sends one after another (each
 * sent once the previous answer arrived), until the gateway closes. */
function socksExchange(port: number, messages: Buffer[]): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const answers: Buffer[] = [];
    let next = 0;
    const send = () => {
      const message = messages[next++];
      if (message) socket.write(message);
    };
    socket.on("connect", send);
    socket.on("data", (chunk) => {
      answers.push(chunk);
      send();
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answers));
    setTimeout(() => socket.destroy(new Error(`no close; answers ${answers.length}`)), 5_000).unref();
  });
}

/** Usage committed for `user` equals what the origin saw since `before`, to the byte. */
async function expectBilledExactly(user: SeededUser, before: number): Promise<number> {
  let billed = 0;
  await eventually(async () => {
    await gateway.flush();
    billed = (await usageOf(database, user.userId)).reduce((sum, row) => sum + row.bytes, 0);
    return billed === origin.bytes() - before && origin.openSockets() === 0;
  }, "the SOCKS5 traffic to be billed");
  expect(billed).toBe(origin.bytes() - before);
  expect(await balanceOf(database, user.userId)).toBe(BALANCE - billed);
  return billed;
}

describe("SOCKS5 on GATEWAY_SOCKS_PORT", () => {
  it("carries curl (--socks5-hostname, --socks5, socks5h://) byte-exact and bills exactly what the site saw", async () => {
    const user = await seedUser(database, BALANCE);
    const before = origin.bytes();
    const proxy = `127.0.0.1:${gateway.socksPort}`;
    const auth = `${user.username}:${user.password}`;
    const url = `http://127.0.0.1:${origin.port}/random/300000`;
    const expected = randomBody(300_000).toString("latin1");
    for (const args of [
      ["--socks5-hostname", proxy, "--proxy-user", auth, url],
      ["--socks5", proxy, "--proxy-user", auth, url],
      ["-x", socksUrl(user), url],
    ]) {
      const { stdout } = await run("curl", ["-s", "-S", "--max-time", "15", ...args], {
        encoding: "latin1",
        maxBuffer: 8 * 1024 * 1024,
      });
      expect(stdout.length).toBe(300_000);
      expect(stdout === expected).toBe(true);
    }
    origin.closeIdle();
    const billed = await expectBilledExactly(user, before);
    expect(billed).toBeGreaterThan(900_000);
    expect(await usageOf(database, user.userId)).toEqual([
      expect.objectContaining({ domain: "127.0.0.1", requests: 3 }),
    ]);
  });

  it("carries Node (socks-proxy-agent with node:http) and Python (requests with PySocks) byte-exact", async () => {
    const user = await seedUser(database, BALANCE);
    const agent = new SocksProxyAgent(socksUrl(user));
    const body = await new Promise<Buffer>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${origin.port}/random/1000000`, { agent }, (res) => {
          const parts: Buffer[] = [];
          res.on("data", (part: Buffer) => parts.push(part));
          res.on("end", () => resolve(Buffer.concat(parts)));
          res.on("error", reject);
        })
        .on("error", reject);
    });
    expect(sha256(body)).toBe(sha256(randomBody(1_000_000)));
    agent.destroy();

    const script = [
      "import hashlib, sys, requests",
      "r = requests.get(sys.argv[2], proxies={'http': sys.argv[1], 'https': sys.argv[1]}, timeout=15)",
      "print(r.status_code, len(r.content), hashlib.sha256(r.content).hexdigest())",
    ].join("\n");
    const python = await run("/usr/bin/python3", [
      "-c",
      script,
      socksUrl(user),
      `http://127.0.0.1:${origin.port}/random/200000`,
    ]);
    expect(python.stdout.trim()).toBe(`200 200000 ${sha256(randomBody(200_000))}`);
  });

  it("answers a wrong password with the RFC 1929 failure, and refusals after it with the matching reply", async () => {
    const user = await seedUser(database, BALANCE);
    const empty = await seedUser(database, 0);
    const wrong = await socksExchange(gateway.socksPort as number, [
      greeting,
      userPass(user.username, "nope"),
    ]);
    expect(Buffer.concat(wrong)).toEqual(Buffer.from([5, 2, 1, 1]));

    const answer = async (who: SeededUser, request: Buffer) => {
      const bytes = Buffer.concat(
        await socksExchange(gateway.socksPort as number, [
          greeting,
          userPass(who.username, who.password),
          request,
        ]),
      );
      expect(bytes.subarray(0, 4)).toEqual(Buffer.from([5, 2, 1, 0]));
      return bytes[5];
    };
    // Not allowed by ruleset: the cloud metadata address (refused before any packet is sent).
    expect(await answer(user, connectV4([169, 254, 169, 254], 80))).toBe(2);
    // An empty balance is "not allowed" too; its reason is logged.
    expect(await answer(empty, connectV4([127, 0, 0, 1], origin.port))).toBe(2);
    // BIND and UDP ASSOCIATE: command not supported.
    expect(await answer(user, connectV4([127, 0, 0, 1], origin.port, 2))).toBe(7);
    expect(await answer(user, connectV4([127, 0, 0, 1], origin.port, 3))).toBe(7);
    // Nothing listens there: connection refused.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await answer(user, connectV4([127, 0, 0, 1], closedPort))).toBe(5);
    // A client offering no username/password method is told none is acceptable.
    const noAuth = await socksExchange(gateway.socksPort as number, [Buffer.from([5, 1, 0])]);
    expect(Buffer.concat(noAuth)).toEqual(Buffer.from([5, 0xff]));
  });

  it("closes on any bytes that are no whole handshake once the client stops sending — never a crash or a hang", async () => {
    const user = await seedUser(database, BALANCE);
    const valid = Buffer.concat([greeting, userPass(user.username, user.password)]);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
          fc
            .uint8Array({ maxLength: 32 })
            .map((bytes) => Buffer.concat([Buffer.from([5]), Buffer.from(bytes)])),
          fc.nat(valid.length).map((cut) => valid.subarray(0, cut)),
        ),
        fc.array(fc.nat(64), { maxLength: 4 }),
        async (bytes, cuts) => {
          const started = Date.now();
          await new Promise<void>((resolve, reject) => {
            const socket = net.connect(gateway.socksPort as number, "127.0.0.1");
            socket.on("error", () => {});
            // Reads (and drops) what the gateway answers, so its close is seen.
            socket.resume();
            socket.on("close", () => resolve());
            socket.on("connect", async () => {
              let at = 0;
              for (const cut of [
                ...cuts.filter((c) => c < bytes.length).sort((a, b) => a - b),
                bytes.length,
              ]) {
                socket.write(bytes.subarray(at, cut));
                at = cut;
                await new Promise((r) => setImmediate(r));
              }
              socket.end();
            });
            setTimeout(() => reject(new Error(`still open: ${bytes.toString("hex")}`)), 3_000).unref();
          });
          expect(Date.now() - started).toBeLessThan(3_000);
        },
      ),
      { numRuns: 60 },
    );
    // Still serving.
    const after = await curl(["-x", socksUrl(user), `http://127.0.0.1:${origin.port}/`]);
    expect(after.status).toBe(200);
  });

  it("serves a SOCKS5 greeting that arrives on the HTTP port, and answers a TLS handshake there at once", async () => {
    const user = await seedUser(database, BALANCE);
    const onHttpPort = `socks5h://${user.username}:${encodeURIComponent(user.password)}@127.0.0.1:${gateway.httpPort}`;
    const served = await curl(["-x", onHttpPort, `http://127.0.0.1:${origin.port}/`]);
    expect(served).toEqual({ status: 200, body: "hello from origin\n" });

    const started = Date.now();
    const tlsToPlain = await run("curl", [
      "-s",
      "--max-time",
      "10",
      "--proxy-insecure",
      "-x",
      `https://${user.username}:${user.password}@127.0.0.1:${gateway.httpPort}`,
      `http://127.0.0.1:${origin.port}/`,
    ]).catch((error: { code: number }) => error);
    // curl fails the TLS handshake (it got a plain answer) instead of timing out.
    expect((tlsToPlain as { code?: number }).code).not.toBe(28);
    // Well before the head deadline (10 s here) that it waited out before.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("answers a plain proxy request sent to the TLS port at once, in plain HTTP, naming the port to use", async () => {
    const user = await seedUser(database, BALANCE);
    const started = Date.now();
    const result = await curl([
      "-x",
      `http://${user.username}:${user.password}@127.0.0.1:${gateway.httpsPort}`,
      `http://127.0.0.1:${origin.port}/`,
    ]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.status).toBe(400);
    expect(JSON.parse(result.body)).toMatchObject({
      error: "bad_request",
      message: `This port speaks TLS: send plain proxy requests to port ${gateway.httpPort}`,
    });
    const tunnel = await curl([
      "-p",
      "-x",
      `http://${user.username}:${user.password}@127.0.0.1:${gateway.httpsPort}`,
      `http://127.0.0.1:${origin.port}/`,
    ]).catch((error: { stderr?: string }) => ({ status: 0, body: error.stderr ?? "" }));
    expect(`${tunnel.status} ${tunnel.body}`).toMatch(/400/);
  });
});
