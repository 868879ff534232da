import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Subuser } from "@bytetoll/contracts";
import type { Gateway } from "@bytetoll/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { startTestGateway } from "../../helpers/test-gateway.ts";

/** What docs/product.md promises: a changed list reaches every gateway within this. */
const CHANGE_MS = 5_000;

let t: TestApp;
let gateways: Gateway[];
let site: http.Server;
let sitePort: number;
let token: string;
let subuser: Subuser;

beforeAll(async () => {
  t = await createTestApp();
  site = http.createServer((request, response) => response.end(`site ${request.headers.host}`));
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  sitePort = (site.address() as AddressInfo).port;
  // Every *.test name is the site on loopback; caches outlive the test, so only the change feed
  // can bring a changed list.
  const settings = {
    socksPort: 0,
    egressAllow: ["127.0.0.0/8"],
    cacheTtlMs: 600_000,
    resolveHost: async (host: string) => (host.endsWith(".test") ? ["127.0.0.1"] : []),
  };
  gateways = [await startTestGateway(t.database, settings), await startTestGateway(t.database, settings)];
  token = (await signIn(t.app, "contractor-owner@example.com")).token;
  const created = await t.app.inject({
    method: "POST",
    url: "/subusers",
    headers: bearer(token),
    payload: { label: "contractor" },
  });
  subuser = created.json().data;
}, 60_000);
afterAll(async () => {
  for (const gateway of gateways ?? []) await gateway.close();
  await new Promise((resolve) => site?.close(resolve));
  await t?.close();
});

const patch = (payload: Record<string, unknown>) =>
  t.app.inject({ method: "PATCH", url: `/subusers/${subuser.id}`, headers: bearer(token), payload });

const FRONT_ENDS = ["http", "connect", "https-proxy", "socks5"] as const;

/** curl to http://host:port/ through one front-end as the sub-user: the page it read, or what it
 * was told (the X-ByteToll-Error code; for SOCKS5, curl's message about the reply). */
function fetchThrough(
  gateway: Gateway,
  frontEnd: (typeof FRONT_ENDS)[number],
  host: string,
): Promise<string> {
  const credentials = `${subuser.username}:${encodeURIComponent(subuser.password)}`;
  const proxy = {
    http: ["-x", `http://${credentials}@127.0.0.1:${gateway.httpPort}`],
    connect: ["-p", "-x", `http://${credentials}@127.0.0.1:${gateway.httpPort}`],
    "https-proxy": ["-p", "--proxy-insecure", "-x", `https://${credentials}@127.0.0.1:${gateway.httpsPort}`],
    socks5: ["-x", `socks5h://${credentials}@127.0.0.1:${gateway.socksPort}`],
  }[frontEnd];
  return new Promise((resolve) => {
    execFile(
      "curl",
      ["-s", "-S", "-v", "--max-time", "10", ...proxy, `http://${host}:${sitePort}/`],
      (_error, stdout, stderr) => {
        if (stdout.startsWith("site ")) return resolve("reached");
        const code = /x-bytetoll-error: (\S+)/i.exec(`${stderr}\n${stdout}`)?.[1];
        if (code) return resolve(code);
        // curl names the SOCKS5 reply: 2 is "connection not allowed by ruleset".
        resolve(
          /SOCKS5.*(not allowed|\(2\))/i.test(stderr) ? "socks_not_allowed" : `other: ${stderr.slice(-200)}`,
        );
      },
    );
  });
}

const refused = (frontEnd: string) =>
  frontEnd === "socks5" ? "socks_not_allowed" : "destination_not_allowed";

describe("a sub-user's allowed sites", () => {
  it("refuses bad lists with a 400 naming the entry, and changes nothing", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [["example.com", "not a domain"], /"not a domain"/],
      [["*.com"], /"\*\.com"/],
      [["http://example.com/"], /http:\/\/example\.com/],
      [Array.from({ length: 101 }, (_, i) => `site${i}.example`), /at most 100/],
      ["example.com", /allowed_domains must be a list/],
      [[42], /allowed_domains entries must be text/],
    ];
    for (const [allowed_domains, message] of cases) {
      const response = await patch({ allowed_domains });
      expect(response.statusCode, JSON.stringify(allowed_domains).slice(0, 80)).toBe(400);
      expect(response.json()).toMatchObject({ success: false, message });
    }
    const current = await t.app.inject({
      method: "GET",
      url: `/subusers/${subuser.id}`,
      headers: bearer(token),
    });
    expect(current.json().data.allowed_domains).toBeNull();
  });

  it("holds on HTTP, CONNECT, the HTTPS proxy port and SOCKS5 of every gateway, and follows changes", async () => {
    for (const gateway of gateways)
      for (const frontEnd of FRONT_ENDS)
        expect(await fetchThrough(gateway, frontEnd, "anything.test"), frontEnd).toBe("reached");

    const response = await patch({ allowed_domains: ["Shop.test", "*.cdn.test"] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.allowed_domains).toEqual(["shop.test", "*.cdn.test"]);
    const started = Date.now();
    for (const gateway of gateways) {
      await expect
        .poll(() => fetchThrough(gateway, "connect", "anything.test"), { timeout: CHANGE_MS, interval: 50 })
        .toBe("destination_not_allowed");
    }
    expect(Date.now() - started).toBeLessThan(CHANGE_MS);
    for (const gateway of gateways) {
      for (const frontEnd of FRONT_ENDS) {
        for (const host of ["shop.test", "img.cdn.test", "a.b.cdn.test"])
          expect(await fetchThrough(gateway, frontEnd, host), `${frontEnd} ${host}`).toBe("reached");
        for (const host of ["anything.test", "www.shop.test", "cdn.test", "127.0.0.1"])
          expect(await fetchThrough(gateway, frontEnd, host), `${frontEnd} ${host}`).toBe(refused(frontEnd));
      }
    }

    const cleared = await patch({ allowed_domains: null });
    expect(cleared.json().data.allowed_domains).toBeNull();
    for (const gateway of gateways) {
      await expect
        .poll(() => fetchThrough(gateway, "socks5", "anything.test"), { timeout: CHANGE_MS, interval: 50 })
        .toBe("reached");
    }
  });

  it("names the sub-user's list in the refusal, not the operator's rules", async () => {
    await patch({ allowed_domains: ["shop.test"] });
    const gateway = gateways[0] as Gateway;
    await expect
      .poll(() => fetchThrough(gateway, "http", "other.test"), { timeout: CHANGE_MS, interval: 50 })
      .toBe("destination_not_allowed");
    const auth = Buffer.from(`${subuser.username}:${subuser.password}`).toString("base64");
    const body = await new Promise<string>((resolve, reject) => {
      const request = http.request({
        host: "127.0.0.1",
        port: gateway.httpPort,
        path: `http://other.test:${sitePort}/`,
        headers: { "Proxy-Authorization": `Basic ${auth}` },
      });
      request.on("response", (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on("end", () => resolve(`${response.statusCode} ${response.statusMessage} ${text}`));
      });
      request.on("error", reject);
      request.end();
    });
    expect(body).toMatch(/^403 Destination Not Allowed /);
    expect(JSON.parse(body.slice(body.indexOf("{")))).toEqual({
      success: false,
      error: "destination_not_allowed",
      message: "This sub-user may only reach shop.test; other.test is not on its list",
    });
  });
});
