import http from "node:http";
import type { AddressInfo } from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { accountSession, parseUpstream } from "@bytetoll/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, curl, rawExchange, type SeededUser, seedUser, startGateway } from "./support/harness.ts";
import {
  type ReferenceProxy,
  startDefaultSquid,
  startDefaultTinyproxy,
} from "./support/reference-proxies.ts";
import { startUpstreamProxy, type UpstreamProxy } from "./support/upstream-proxy.ts";

/** A site that answers with the Via header it got: which proxy carried the request. */
async function startViaEcho(): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => res.end(`via=${req.headers.via ?? "none"}`));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let database: TestDatabase;
let gateway: Gateway;
let squid: ReferenceProxy;
let tinyproxy: ReferenceProxy;
let template: UpstreamProxy;
let site: Awaited<ReturnType<typeof startViaEcho>>;
let alice: SeededUser;
let bob: SeededUser;

beforeAll(async () => {
  database = await createTestDatabase();
  const [startedSquid, startedTinyproxy] = await Promise.all([startDefaultSquid(), startDefaultTinyproxy()]);
  if (!startedSquid || !startedTinyproxy) throw new Error("squid and tinyproxy (Debian) are needed");
  squid = startedSquid;
  tinyproxy = startedTinyproxy;
  // Takes any account, so every filled-in username it was given is on record.
  template = await startUpstreamProxy();
  site = await startViaEcho();
  const templateUrl = `http://acct-country-{country}-city-{city}-session-{session}-sesstime-{sesstime}:pw@127.0.0.1:${template.port}?country=fr`;
  gateway = await startGateway(database, {
    mobileUpstreams: [
      parseUpstream(`${squid.url}?country=us`),
      parseUpstream(`${tinyproxy.url}?country=de&country=AT`),
      parseUpstream(templateUrl),
    ],
  });
  alice = await seedUser(database, 100_000_000);
  bob = await seedUser(database, 100_000_000);
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await Promise.all([squid?.close(), tinyproxy?.close(), template?.close(), site?.close()]);
  await database?.close();
});

const proxyUrl = (user: SeededUser, options: string, scheme = "http", port = gateway.httpPort) =>
  `${scheme}://${user.username}${options}:${user.password}@127.0.0.1:${port}`;
const siteUrl = () => `http://127.0.0.1:${site.port}/`;
/** The usernames the template upstream was given, newest last. */
const templateUsernames = () =>
  template.authorizations.map(
    (value) =>
      Buffer.from((value ?? "").replace(/^Basic /, ""), "base64")
        .toString()
        .split(":")[0],
  );

describe("a country in the username picks an exit that serves it", () => {
  it("sends plain HTTP to squid and tinyproxy in their default configuration, in absolute form", async () => {
    const us = await curl(["-x", proxyUrl(alice, "-country-us"), siteUrl()]);
    expect(us).toMatchObject({ status: 200 });
    expect(us.body).toMatch(/^via=.*squid/);
    for (const country of ["de", "AT"]) {
      const de = await curl(["-x", proxyUrl(alice, `-country-${country}`), siteUrl()]);
      expect(de.status).toBe(200);
      expect(de.body).toMatch(/^via=.*tinyproxy/);
    }
  });

  it("tunnels CONNECT, 8443 and SOCKS5 through the exit of the country", async () => {
    const connect = await curl(["-p", "-x", proxyUrl(alice, "-country-de"), siteUrl()]);
    // Tunnelled: tinyproxy only relays bytes, so the site sees no Via.
    expect(connect).toEqual({ status: 200, body: "via=none" });
    const before = template.tunnels.length;
    const secure = await curl([
      "-p",
      "--proxy-insecure",
      "-x",
      proxyUrl(alice, "-country-fr", "https", gateway.httpsPort),
      siteUrl(),
    ]);
    expect(secure).toEqual({ status: 200, body: "via=none" });
    const socks = await curl([
      "-x",
      proxyUrl(alice, "-country-fr", "socks5h", gateway.socksPort as number),
      siteUrl(),
    ]);
    expect(socks).toEqual({ status: 200, body: "via=none" });
    expect(template.tunnels.slice(before)).toEqual([`127.0.0.1:${site.port}`, `127.0.0.1:${site.port}`]);
  });

  it("refuses a country no exit serves: 502 no_exit_in_country naming it, SOCKS5 network unreachable", async () => {
    const response = await rawExchange(
      gateway.httpPort,
      `GET ${siteUrl()} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(`${alice.username}-country-jp`, alice.password)}\r\n\r\n`,
    );
    expect(response.status).toBe(502);
    expect(response.headers["x-bytetoll-error"]).toBe("no_exit_in_country");
    expect(JSON.parse(response.body).message).toContain("'jp'");
    const socks = curl([
      "-x",
      proxyUrl(alice, "-country-jp", "socks5h", gateway.socksPort as number),
      siteUrl(),
    ]);
    await expect(socks).rejects.toThrow(/network unreachable|\(3\)/i);
  });
});

describe("a username template carries the request's choices", () => {
  it("fills country, city, a per-account session and its lifetime, leaving out what the request lacks", async () => {
    await curl(["-x", proxyUrl(alice, "-country-fr-session-shared-sesstime-30"), siteUrl()]);
    await curl(["-x", proxyUrl(bob, "-session-shared-country-FR"), siteUrl()]);
    await curl(["-x", proxyUrl(bob, "-country-fr"), siteUrl()]);
    await curl(["-x", proxyUrl(alice, "-city-saint_denis-country-fr"), siteUrl()]);
    expect(templateUsernames().slice(-4)).toEqual([
      `acct-country-fr-session-${accountSession(alice.userId, "shared")}-sesstime-30`,
      `acct-country-fr-session-${accountSession(bob.userId, "shared")}-sesstime-10`,
      "acct-country-fr",
      "acct-country-fr-city-saint_denis",
    ]);
    // Two customers who chose the same id never share the upstream's session.
    expect(accountSession(alice.userId, "shared")).not.toBe(accountSession(bob.userId, "shared"));
    expect(template.requests.slice(-1)).toEqual([siteUrl()]);
  });
});
