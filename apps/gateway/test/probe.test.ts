import { createTestDatabase } from "@bytetoll/db/testing";
import { type GatewayConfig, loadGatewayConfig, parseUpstream } from "@bytetoll/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prober } from "../src/probe/probe.ts";
import { DestinationPolicy } from "../src/route/destination-policy.ts";
import { silentLogger } from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";
import { startDefaultSquid } from "./support/reference-proxies.ts";
import { createTestCa, type TestCa } from "./support/test-ca.ts";
import { startUpstreamProxy, type UpstreamProxy } from "./support/upstream-proxy.ts";

let ca: TestCa;
let secureOrigin: TestOrigin;
let plainOrigin: TestOrigin;
let exit: UpstreamProxy;
let config: GatewayConfig;

beforeAll(async () => {
  ca = await createTestCa();
  secureOrigin = await startOrigin(await ca.issue("DNS:site.test"));
  plainOrigin = await startOrigin();
  exit = await startUpstreamProxy();
  config = {
    ...loadGatewayConfig({ EGRESS_ALLOW: "127.0.0.1/32" }),
    mobileUpstreams: [parseUpstream("direct")],
    datacenterUpstreams: [parseUpstream(exit.url)],
    resolveHost: async (host) => (host === "internal.test" ? ["10.1.2.3"] : ["127.0.0.1"]),
  };
}, 30_000);
afterAll(async () => {
  await Promise.all([secureOrigin?.close(), plainOrigin?.close(), exit?.close()]);
});

describe("the learner's prober", () => {
  it("fetches an https front page through an upstream exit and directly, the certificate verified", async () => {
    const prober = new Prober(config, { targetCa: ca.cert });
    for (const pool of ["dc", "mobile"] as const) {
      const response = await prober.fetch(pool, "https", "site.test", secureOrigin.port);
      expect(response).toMatchObject({ status: 200, error: null, bytes: 18 });
      expect(response.body.toString()).toBe("hello from origin\n");
      expect(response.headers["content-type"]).toBe("text/plain");
    }
    expect(exit.tunnels).toEqual([`127.0.0.1:${secureOrigin.port}`]);
  });

  it("fetches a plain http front page through the exit in absolute form, never CONNECT", async () => {
    const tunnels = exit.tunnels.length;
    const response = await new Prober(config).fetch("dc", "http", "127.0.0.1", plainOrigin.port);
    expect(response).toMatchObject({ status: 200, error: null });
    expect(response.body.toString()).toBe("hello from origin\n");
    expect(exit.requests.at(-1)).toBe(`http://127.0.0.1:${plainOrigin.port}/`);
    expect(exit.tunnels.length).toBe(tunnels);
  });

  it("fetches plain http and https sites behind squid in its default configuration", async () => {
    const squid = await startDefaultSquid();
    if (!squid) throw new Error("squid (Debian) is needed");
    try {
      const behindSquid = { ...config, datacenterUpstreams: [parseUpstream(squid.url)] };
      const plain = await new Prober(behindSquid).fetch("dc", "http", "127.0.0.1", plainOrigin.port);
      expect(plain).toMatchObject({ status: 200, error: null });
      expect(plain.body.toString()).toBe("hello from origin\n");
      // squid's own refusal (CONNECT to a port other than 443) is the exit's failure, not the site's.
      const refused = await new Prober(behindSquid, { targetCa: ca.cert }).fetch(
        "dc",
        "https",
        "site.test",
        secureOrigin.port,
      );
      expect(refused.error).toMatch(/^exit: .*CONNECT with 403/);
    } finally {
      await squid.close();
    }
  });

  it("reports a certificate that does not verify as a TLS failure", async () => {
    const response = await new Prober(config).fetch("mobile", "https", "site.test", secureOrigin.port);
    expect(response.status).toBeNull();
    expect(response.error).toMatch(/^tls: /);
  });

  it("never dials what the egress guard forbids", async () => {
    const before = exit.tunnels.length;
    const response = await new Prober(config).fetch("dc", "http", "internal.test", 80);
    expect(response.error).toMatch(/^forbidden: /);
    expect(exit.tunnels.length).toBe(before);
  });

  it("tells an exit it cannot reach from a site the exit cannot reach", async () => {
    const dead = { ...config, datacenterUpstreams: [parseUpstream("http://127.0.0.1:1")] };
    const exitDown = await new Prober(dead).fetch("dc", "http", "site.test", plainOrigin.port);
    expect(exitDown.error).toMatch(/^exit: /);
    const siteDown = await new Prober(config).fetch("dc", "https", "site.test", 1);
    expect(siteDown.error).toMatch(/^connect: /);
  });

  it("obeys the operator's destination rules before looking the name up, and follows their changes", async () => {
    const database = await createTestDatabase();
    const destinations = new DestinationPolicy(database, silentLogger);
    await destinations.start();
    try {
      const lookedUp: string[] = [];
      const watched = {
        ...config,
        resolveHost: async (host: string) => {
          lookedUp.push(host);
          return ["127.0.0.1"];
        },
      };
      const prober = new Prober(watched, { destinations });
      // The fresh-install default refuses low ports.
      expect((await prober.fetch("dc", "http", "site.test", 25)).error).toBe(
        "forbidden: Outgoing e-mail and other low ports are not allowed through the proxy",
      );
      await database.query(
        "INSERT INTO destination_rules (action, domain, reason) VALUES ('block', '*.blocked.test', 'not probed')",
      );
      await expect
        .poll(async () => (await prober.fetch("dc", "http", "www.blocked.test", plainOrigin.port)).error, {
          timeout: 5_000,
          interval: 50,
        })
        .toBe("forbidden: not probed");
      lookedUp.length = 0;
      const before = exit.tunnels.length;
      expect((await prober.fetch("dc", "http", "deep.www.blocked.test", plainOrigin.port)).error).toBe(
        "forbidden: not probed",
      );
      expect(lookedUp).toEqual([]);
      expect(exit.tunnels.length).toBe(before);
      expect((await prober.fetch("mobile", "http", "site.test", plainOrigin.port)).status).toBe(200);
    } finally {
      await destinations.stop();
      await database.close();
    }
  });
});
