import net from "node:net";
import { hashSecret } from "@bytetoll/db";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { freePort } from "../testing.ts";
import { basic, curl, rawExchange, type SeededUser, seedUser, startGateway } from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

let database: TestDatabase;
let gateway: Gateway;
let origin: TestOrigin;
let user: SeededUser;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database, { cacheTtlMs: 300 });
  origin = await startOrigin();
  user = await seedUser(database, 1_000_000);
});
afterAll(async () => {
  await gateway.close();
  await origin.close();
  await database.close();
});

function plainGet(authorization: string | null, target = `127.0.0.1:${origin.port}`, path = "/") {
  const auth = authorization === null ? "" : `Proxy-Authorization: ${authorization}\r\n`;
  return rawExchange(
    gateway.httpPort,
    `GET http://${target}${path} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`,
  );
}

function connect(authorization: string | null, target = `127.0.0.1:${origin.port}`) {
  const auth = authorization === null ? "" : `Proxy-Authorization: ${authorization}\r\n`;
  return rawExchange(gateway.httpPort, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
}

describe("refusals carry their reason", () => {
  it("asks for credentials with 407 auth_required and a Basic challenge, on HTTP and CONNECT", async () => {
    for (const response of [await plainGet(null), await connect(null), await plainGet("Bearer abc")]) {
      expect(response.status).toBe(407);
      expect(response.headers["x-bytetoll-error"]).toBe("auth_required");
      expect(response.headers["proxy-authenticate"]).toBe('Basic realm="ByteToll"');
      expect(JSON.parse(response.body)).toMatchObject({ success: false, error: "auth_required" });
    }
    const viaCurl = await curl([
      "-x",
      `http://127.0.0.1:${gateway.httpPort}`,
      `http://127.0.0.1:${origin.port}/`,
    ]);
    expect(viaCurl.status).toBe(407);
  });

  it("refuses a wrong password or unknown user with 407 bad_credentials", async () => {
    for (const auth of [basic(user.username, "wrong"), basic("nobody", "x"), basic(user.username, "")]) {
      const response = await plainGet(auth);
      expect(response.status).toBe(407);
      expect(response.headers["x-bytetoll-error"]).toBe("bad_credentials");
      expect(JSON.parse(response.body).message).toMatch(/username or password/);
    }
  });

  it("refuses unknown or malformed username options with 407 bad_username_option naming the option", async () => {
    for (const [name, message] of [
      [`${user.username}-colour-red`, "Unknown username option 'colour'"],
      [`${user.username}-country-zz`, "Bad country code 'zz'"],
      [`${user.username}-country-usa`, "Bad country code 'usa'"],
      [`${user.username}-session-${"a".repeat(33)}`, "Bad session id"],
      [`${user.username}-session-ab_c`, "Bad session id 'ab_c'"],
      [`${user.username}-sesstime-0`, "Bad session lifetime '0'"],
      [`${user.username}-sesstime-1441`, "Bad session lifetime '1441'"],
      [`${user.username}-city-X`, "Bad city 'X'"],
      [`${user.username}-routing-dumb`, "Bad routing 'dumb'"],
      [`${user.username}-session`, "Username option 'session' needs a value"],
      [`${user.username}-session-a-session-b`, "Username option 'session' is given twice"],
    ] as const) {
      const response = await connect(basic(name, user.password));
      expect(response.status, name).toBe(407);
      expect(response.headers["x-bytetoll-error"], name).toBe("bad_username_option");
      expect(JSON.parse(response.body).message, name).toContain(message);
    }
  });

  it("accepts the documented options, in any order and case of country", async () => {
    for (const name of [
      `${user.username}-session-Ab12cd34`,
      `${user.username}-routing-smart`,
      `${user.username}-session-abcd1234-routing-smart`,
      `${user.username}-routing-smart-session-abc`,
      `${user.username}-session-${"Z".repeat(32)}-sesstime-1440`,
      `${user.username}-city-new_york-sesstime-1`,
    ]) {
      expect((await plainGet(basic(name, user.password))).status, name).toBe(200);
    }
    // Read, but the direct exit does not say where it leaves: no country is served.
    for (const name of [`${user.username}-country-US`, `${user.username}-sesstime-30-country-de-session-7`]) {
      const response = await plainGet(basic(name, user.password));
      expect(response.headers["x-bytetoll-error"], name).toBe("no_exit_in_country");
    }
  });

  it("refuses an account without balance, and anonymous temporary credentials, with 402", async () => {
    const broke = await seedUser(database, 0);
    const response = await plainGet(basic(broke.username, broke.password));
    expect(response.status).toBe(402);
    expect(response.headers["x-bytetoll-error"]).toBe("balance_exhausted");
    await database.query(
      "INSERT INTO proxy_credentials (username, password_hash, password_enc) VALUES ('anon1', $1, 'x')",
      [hashSecret("anonpass")],
    );
    const anonymous = await connect(basic("anon1", "anonpass"));
    expect(anonymous.status).toBe(402);
    expect(anonymous.headers["x-bytetoll-error"]).toBe("balance_exhausted");
  });

  it("refuses private destinations with 403 and unreachable ones with 502", async () => {
    const forbidden = await plainGet(basic(user.username, user.password), "10.0.0.1:80");
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers["x-bytetoll-error"]).toBe("destination_forbidden");
    const closed = await freePort();
    for (const response of [
      await plainGet(basic(user.username, user.password), `127.0.0.1:${closed}`),
      await connect(basic(user.username, user.password), `127.0.0.1:${closed}`),
    ]) {
      expect(response.status).toBe(502);
      expect(response.headers["x-bytetoll-error"]).toBe("upstream_failed");
    }
  });

  it("answers requests that are not proxy requests with 400", async () => {
    const response = await rawExchange(gateway.httpPort, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(response.status).toBe(400);
    expect(response.headers["x-bytetoll-error"]).toBe("bad_request");
    const badConnect = await connect(basic(user.username, user.password), "no-port-here");
    expect(badConnect.status).toBe(400);
  });

  it("counts refusals by reason on /metrics", async () => {
    const response = await fetch(`http://127.0.0.1:${gateway.metricsPort}/metrics`);
    const text = await response.text();
    expect(text).toMatch(/bytetoll_gateway_refusals_total\{reason="auth_required"\} [1-9]/);
    expect(text).toMatch(/bytetoll_gateway_refusals_total\{reason="balance_exhausted"\} [1-9]/);
    expect(text).toContain("bytetoll_gateway_flush_lag_seconds");
  });
});

/** Sends requests one after another on one kept-alive connection; resolves each response's
 * status and the X-ByteToll-Error header. */
async function onOneConnection(requests: string[]): Promise<Array<[number, string | undefined]>> {
  const socket = net.connect(gateway.httpPort, "127.0.0.1");
  socket.on("error", () => {});
  let data = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  socket.on("data", (chunk: Buffer) => {
    data = Buffer.concat([data, chunk]);
    wake?.();
  });
  const results: Array<[number, string | undefined]> = [];
  try {
    for (const request of requests) {
      socket.write(request);
      for (;;) {
        const end = data.indexOf("\r\n\r\n");
        const head = end === -1 ? "" : data.subarray(0, end).toString("latin1");
        const length = /\r\ntransfer-encoding: *chunked/i.test(head)
          ? data.indexOf("\r\n0\r\n\r\n", end + 2) + 7 - (end + 4)
          : Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1]);
        if (end !== -1 && length >= 0 && data.length >= end + 4 + length) {
          data = data.subarray(end + 4 + length);
          results.push([Number(head.split(" ")[1]), /\r\nx-bytetoll-error: *(\S+)/i.exec(head)?.[1]]);
          break;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    }
  } finally {
    socket.destroy();
  }
  return results;
}

describe("credential changes", () => {
  it("checks every request's own credentials on a kept-alive connection", async () => {
    const other = await seedUser(database, 1_000_000);
    const target = `127.0.0.1:${origin.port}`;
    const get = (authorization: string) =>
      `GET http://${target}/ HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${authorization}\r\n\r\n`;
    const results = await onOneConnection([
      get(basic(user.username, user.password)),
      get(basic(user.username, "wrong")),
      get(basic(user.username, user.password)),
      get(basic(other.username, user.password)),
      get(basic(other.username, other.password)),
      get("Bearer abc"),
      get(basic(user.username, user.password)),
    ]);
    expect(results).toEqual([
      [200, undefined],
      [407, "bad_credentials"],
      [200, undefined],
      [407, "bad_credentials"],
      [200, undefined],
      [407, "auth_required"],
      [200, undefined],
    ]);
  });

  it("sees a regenerated password within the cache lifetime", async () => {
    const changing = await seedUser(database, 1_000_000);
    expect((await plainGet(basic(changing.username, changing.password))).status).toBe(200);
    await database.query("UPDATE proxy_credentials SET password_hash = $1 WHERE username = $2", [
      hashSecret("new-password"),
      changing.username,
    ]);
    await expect
      .poll(async () => (await plainGet(basic(changing.username, changing.password))).status, {
        timeout: 5_000,
        interval: 50,
      })
      .toBe(407);
    expect((await plainGet(basic(changing.username, "new-password"))).status).toBe(200);
  });
});
