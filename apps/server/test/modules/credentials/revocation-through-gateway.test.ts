import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { applyLedgerEntry } from "@bytetoll/db";
import type { Gateway } from "@bytetoll/gateway";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { startTestGateway } from "../../helpers/test-gateway.ts";

/** Far longer than the test: only the database's change feed can explain a change being seen. */
const CACHE_TTL_MS = 600_000;

let t: TestApp;
let gateway: Gateway;
let origin: http.Server;

beforeAll(async () => {
  t = await createTestApp();
  origin = http.createServer((_request, response) => response.end("hello"));
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  gateway = await startTestGateway(t.database, { cacheTtlMs: CACHE_TTL_MS });
});
afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
  await t?.close();
});

const originAuthority = () => `127.0.0.1:${(origin.address() as AddressInfo).port}`;
const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

/** Sends one proxy request head on a fresh connection; resolves with the gateway's first answer
 * and a view of whether the connection has closed since. */
function proxyHead(head: string) {
  const socket = net.connect(gateway.httpPort, "127.0.0.1");
  const state = { closed: false, received: "" };
  socket.on("error", () => {});
  socket.on("close", () => {
    state.closed = true;
  });
  const answered = new Promise<string>((resolve, reject) => {
    socket.on("data", (chunk: Buffer) => {
      state.received += chunk.toString("latin1");
      if (state.received.includes("\r\n\r\n")) resolve(state.received);
    });
    socket.on("close", () => reject(new Error(`closed before answering: ${state.received}`)));
  });
  socket.write(head);
  return { socket, state, answered };
}

function openTunnel(username: string, password: string) {
  const authority = originAuthority();
  return proxyHead(
    `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\nProxy-Authorization: ${basic(username, password)}\r\n\r\n`,
  );
}

async function statusWith(username: string, password: string): Promise<number> {
  const authority = originAuthority();
  const { socket, answered } = proxyHead(
    `GET http://${authority}/ HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\nProxy-Authorization: ${basic(username, password)}\r\n\r\n`,
  );
  const head = await answered;
  socket.destroy();
  return Number(head.split(" ")[1]);
}

async function waitUntil(condition: () => boolean, withinMs: number, what: string): Promise<number> {
  const startedAt = Date.now();
  await vi.waitFor(
    () => {
      if (!condition()) throw new Error(`not within ${withinMs} ms: ${what}`);
    },
    { timeout: withinMs, interval: 10 },
  );
  return Date.now() - startedAt;
}

/** A signed-in customer with a balance and the proxy credentials the dashboard shows. */
async function customer(email: string) {
  const { token, id } = await signIn(t.app, email);
  await applyLedgerEntry(t.database.db, {
    userId: id,
    kind: "purchase",
    reference: `revocation-${id}`,
    deltaBytes: 1e9,
  });
  const latest = await t.app.inject({ method: "GET", url: "/credentials/latest", headers: bearer(token) });
  expect(latest.statusCode).toBe(200);
  const { username, password } = latest.json().data as { username: string; password: string };
  return { token, username, password };
}

describe("revoking proxy credentials through the API", () => {
  it("closes the open tunnels of a regenerated password within a second and refuses it from then on", async () => {
    const { token, username, password } = await customer("regenerate@example.com");
    const tunnel = openTunnel(username, password);
    expect(await tunnel.answered).toMatch(/^HTTP\/1\.1 200 /);
    expect(await statusWith(username, password)).toBe(200);

    const regenerated = await t.app.inject({
      method: "POST",
      url: "/credentials/regenerate",
      headers: bearer(token),
    });
    expect(regenerated.statusCode).toBe(200);
    const fresh = regenerated.json().data.password as string;
    expect(fresh).not.toBe(password);

    const closedAfter = await waitUntil(() => tunnel.state.closed, 1_000, "the old password's tunnel closed");
    expect(closedAfter).toBeLessThan(1_000);
    expect(await statusWith(username, password)).toBe(407);
    expect(await statusWith(username, fresh)).toBe(200);
  });

  it("leaves proxy credentials and their tunnels alone on sign-out everywhere (sessions are not proxy credentials)", async () => {
    const { token, username, password } = await customer("logout-all@example.com");
    const tunnel = openTunnel(username, password);
    expect(await tunnel.answered).toMatch(/^HTTP\/1\.1 200 /);
    const signedOut = await t.app.inject({ method: "POST", url: "/auth/logout-all", headers: bearer(token) });
    expect(signedOut.statusCode).toBe(200);
    // A later revocation (another customer's regenerated password) reaches the gateway on the
    // same change feed after the sign-out's changes: once its tunnel is closed, the gateway has
    // had the sign-out's changes too.
    const marker = await customer("logout-all-marker@example.com");
    const markerTunnel = openTunnel(marker.username, marker.password);
    expect(await markerTunnel.answered).toMatch(/^HTTP\/1\.1 200 /);
    const regenerated = await t.app.inject({
      method: "POST",
      url: "/credentials/regenerate",
      headers: bearer(marker.token),
    });
    expect(regenerated.statusCode).toBe(200);
    await waitUntil(() => markerTunnel.state.closed, 1_000, "the later revocation's tunnel closed");
    expect(tunnel.state.closed).toBe(false);
    expect(await statusWith(username, password)).toBe(200);
    tunnel.socket.destroy();
  });
});
