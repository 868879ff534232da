import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { parseProxyUsername } from "@bytetoll/contracts";
import { applyLedgerEntry } from "@bytetoll/db";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import type { Gateway } from "@bytetoll/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, TEST_APP_URL, type TestApp } from "../../helpers/test-app.ts";
import { startTestGateway } from "../../helpers/test-gateway.ts";

const run = promisify(execFile);

let database: TestDatabase;
let gateway: Gateway;
let t: TestApp;
let origin: http.Server;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startTestGateway(database, { socksPort: 0 });
  origin = http.createServer((_request, response) => response.end("through the list"));
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  // The lines name the gateway as customers reach it: here, its loopback ports.
  t = await createTestApp(
    {
      GATEWAY_HOST: "127.0.0.1",
      GATEWAY_HTTP_PORT: String(gateway.httpPort),
      GATEWAY_SOCKS_PORT: String(gateway.socksPort),
    },
    { database },
  );
});
afterAll(async () => {
  await t?.close();
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
  await database?.close();
});

const originUrl = () => `http://127.0.0.1:${(origin.address() as AddressInfo).port}/`;

/** curl with these proxy arguments; the body it fetched (the origin's greeting when it worked). */
async function curlThrough(...proxyArguments: string[]): Promise<string> {
  const { stdout } = await run("curl", ["-s", "--max-time", "15", ...proxyArguments, originUrl()]);
  return stdout;
}

async function customer(email: string) {
  const { token, id } = await signIn(t.app, email);
  await applyLedgerEntry(t.database.db, {
    userId: id,
    kind: "purchase",
    reference: `list-${id}`,
    deltaBytes: 1e9,
  });
  return { token, id };
}

const list = (token: string, query: string) =>
  t.app.inject({ method: "GET", url: `/credentials/proxy-list?${query}`, headers: bearer(token) });

const lines = (body: string) => body.split("\n").filter(Boolean);

describe("the proxy list", () => {
  it("gives lines in every format that curl uses as they stand through the gateway", async () => {
    const { token } = await customer("list-formats@example.com");
    const greeting = "through the list";

    const plain = await list(token, "count=3");
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers["content-type"]).toMatch(/^text\/plain/);
    const [first] = lines(plain.body);
    expect(lines(plain.body)).toHaveLength(3);
    const [host, port, user, pass] = (first as string).split(":");
    expect(await curlThrough("-x", `${host}:${port}`, "-U", `${user}:${pass}`)).toBe(greeting);

    const at = lines((await list(token, "count=2&format=user:pass@host:port")).body);
    expect(await curlThrough("-x", at[0] as string)).toBe(greeting);

    const urls = lines((await list(token, "count=2&format=url")).body);
    expect(urls[0]).toMatch(/^http:\/\//);
    expect(await curlThrough("-x", urls[0] as string)).toBe(greeting);

    const socks = lines((await list(token, "count=2&format=url&protocol=socks5")).body);
    expect(socks[0]).toMatch(new RegExp(`^socks5h://[^@]+@127\\.0\\.0\\.1:${gateway.socksPort}$`));
    expect(await curlThrough("-x", socks[0] as string)).toBe(greeting);

    const json = await list(token, "count=2&format=json&protocol=socks5");
    expect(json.headers["content-type"]).toMatch(/^application\/json/);
    const entries = json.json().data as Array<{ url: string; port: number; protocol: string }>;
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ protocol: "socks5", port: gateway.socksPort, host: "127.0.0.1" });
    expect(await curlThrough("-x", entries[0]?.url as string)).toBe(greeting);
  });

  it("gives each sticky line its own session and lifetime, and rotating lines the rotating username", async () => {
    const { token } = await customer("list-sticky@example.com");
    const sticky = lines((await list(token, "count=50&sticky=true&sesstime=30&country=de")).body);
    const usernames = sticky.map((line) => line.split(":")[2] as string);
    const parsed = usernames.map((username) => {
      const result = parseProxyUsername(username);
      if (!result.ok) throw new Error(result.message);
      return result.value;
    });
    expect(new Set(parsed.map((value) => value.sessionId)).size).toBe(50);
    expect(parsed.every((value) => value.sessionMinutes === 30 && value.country === "DE")).toBe(true);
    const stickyLine = sticky.find((line) => !line.includes("-country-"));
    expect(stickyLine).toBeUndefined();
    const plainSticky = lines((await list(token, "count=2&sticky=true&sesstime=30")).body)[0] as string;
    const [host, port, user, pass] = plainSticky.split(":");
    expect(await curlThrough("-x", `${host}:${port}`, "-U", `${user}:${pass}`)).toBe("through the list");

    const rotating = lines((await list(token, "count=4")).body);
    expect(new Set(rotating).size).toBe(1);
    expect(rotating[0]?.split(":")[2]).toMatch(/^bt[a-z0-9]{10}$/);
    expect(lines((await list(token, "count=10000")).body)).toHaveLength(10_000);
  });

  it("lists a sub-user's own credentials, never another account's sub-user", async () => {
    const { token } = await customer("list-owner@example.com");
    const other = await customer("list-other@example.com");
    const created = await t.app.inject({
      method: "POST",
      url: "/subusers",
      headers: bearer(token),
      payload: { label: "fleet" },
    });
    expect(created.statusCode, created.body).toBe(200);
    const subuser = created.json().data as { id: string; username: string };
    const mine = lines((await list(token, `count=1&format=url&subuser_id=${subuser.id}`)).body)[0] as string;
    expect(mine).toContain(`//${subuser.username}:`);
    expect(await curlThrough("-x", mine)).toBe("through the list");
    const theirs = await list(other.token, `subuser_id=${subuser.id}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ success: false, message: expect.stringContaining("subuser_id") });
  });

  it("refuses a bad option with a message naming it", async () => {
    const { token } = await customer("list-bad@example.com");
    for (const [query, field] of [
      ["count=0", "count"],
      ["count=10001", "count"],
      ["format=csv", "format"],
      ["protocol=https", "protocol"],
      ["country=xx", "country"],
      ["sticky=true&sesstime=0", "sesstime"],
      ["sticky=true&sesstime=9999", "sesstime"],
      ["subuser_id=nope", "subuser_id"],
    ] as const) {
      const refused = await list(token, query);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().success).toBe(false);
      expect(refused.json().message, query).toContain(field);
    }
    expect((await t.app.inject({ method: "GET", url: "/credentials/proxy-list" })).statusCode).toBe(401);
  });
});

describe("proxy-list download URLs", () => {
  it("work without signing in until revoked, and the database keeps only a hash of the secret", async () => {
    const { token, id } = await customer("list-link@example.com");
    const minted = await t.app.inject({
      method: "POST",
      url: "/credentials/proxy-list/links",
      headers: bearer(token),
      payload: { label: "scrapers", count: 5, format: "url", protocol: "socks5", sticky: true, sesstime: 60 },
    });
    expect(minted.statusCode, minted.body).toBe(200);
    const link = minted.json().data as { id: string; url: string; label: string };
    expect(link.label).toBe("scrapers");
    expect(link.url).toMatch(new RegExp(`^${TEST_APP_URL}/credentials/proxy-list/shared/[\\w-]{32}$`));
    const secret = link.url.split("/").pop() as string;
    const stored = await t.database.query<{ secret_hash: string }>(
      "SELECT secret_hash FROM proxy_list_links WHERE user_id = $1",
      [id],
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]?.secret_hash).not.toContain(secret);

    const fetched = await t.app.inject({ method: "GET", url: link.url.slice(TEST_APP_URL.length) });
    expect(fetched.statusCode, fetched.body).toBe(200);
    expect(fetched.headers["content-type"]).toMatch(/^text\/plain/);
    const fleet = lines(fetched.body);
    expect(fleet).toHaveLength(5);
    expect(await curlThrough("-x", fleet[0] as string)).toBe("through the list");

    const listed = await t.app.inject({
      method: "GET",
      url: "/credentials/proxy-list/links",
      headers: bearer(token),
    });
    expect(listed.json().data).toEqual([
      expect.objectContaining({ id: link.id, label: "scrapers", last_used_at: expect.any(String) }),
    ]);
    expect(JSON.stringify(listed.json())).not.toContain(secret);

    const stranger = await customer("list-link-stranger@example.com");
    const notTheirs = await t.app.inject({
      method: "DELETE",
      url: `/credentials/proxy-list/links/${link.id}`,
      headers: bearer(stranger.token),
    });
    expect(notTheirs.statusCode).toBe(404);
    const revoked = await t.app.inject({
      method: "DELETE",
      url: `/credentials/proxy-list/links/${link.id}`,
      headers: bearer(token),
    });
    expect(revoked.statusCode).toBe(200);
    const after = await t.app.inject({ method: "GET", url: link.url.slice(TEST_APP_URL.length) });
    expect(after.statusCode).toBe(404);
    expect(after.json().success).toBe(false);
  });
});
