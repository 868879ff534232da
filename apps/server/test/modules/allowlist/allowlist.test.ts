import { CHANGES_CHANNEL } from "@bytetoll/db";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const read = (auth: string) =>
  t.app.inject({ method: "GET", url: "/settings/allowlist", headers: bearer(auth) });
const save = (auth: string, body: unknown) =>
  t.app.inject({
    method: "POST",
    url: "/settings/allowlist",
    headers: bearer(auth),
    payload: body as object,
  });

describe("the IP allowlist", () => {
  it("is empty at first, replaced as a whole, normalised, and shows the caller's address", async () => {
    const { token } = await signIn(t.app, "allow-owner@example.com");
    const empty = await read(token);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ success: true, data: { ips: [], pending: [], your_ip: "127.0.0.1" } });
    const saved = await save(token, {
      ips: [" 203.0.113.7 ", "198.51.100.77/24", "2001:DB8:1::5/48", "::ffff:192.0.2.1"],
    });
    expect(saved.statusCode).toBe(200);
    const normalised = ["203.0.113.7", "198.51.100.0/24", "2001:db8:1::/48", "192.0.2.1"];
    expect(saved.json().data.ips).toEqual(normalised);
    expect((await read(token)).json().data.ips).toEqual(normalised);
    expect((await save(token, { ips: ["203.0.113.8"] })).json().data.ips).toEqual(["203.0.113.8"]);
    expect((await read(token)).json().data.ips).toEqual(["203.0.113.8"]);
    expect((await save(token, { ips: [] })).json().data.ips).toEqual([]);
  });

  it("refuses bad entries with 400 naming the entry, and changes nothing", async () => {
    const { token } = await signIn(t.app, "allow-bad@example.com");
    await save(token, { ips: ["192.0.2.50"] });
    const cases: [unknown, string][] = [
      [{ ips: ["192.0.2.1", "not-an-ip"] }, "'not-an-ip' is not an IPv4 or IPv6 address or a CIDR range"],
      [{ ips: ["10.0.0.0/16"] }, "'10.0.0.0/16' is too wide: ranges may be at most /24"],
      [{ ips: ["2001:db8::/32"] }, "'2001:db8::/32' is too wide: ranges may be at most /48"],
      [{ ips: ["192.0.2.0/33"] }, "'192.0.2.0/33' is not an IPv4 or IPv6 address or a CIDR range"],
      [
        { ips: ["198.51.100.0/24", "198.51.100.9"] },
        "'198.51.100.0/24' and '198.51.100.9' overlap: list each address once",
      ],
      [{ ips: Array.from({ length: 21 }, (_, i) => `192.0.2.${i}`) }, "At most 20 addresses or ranges"],
      [{ ips: "192.0.2.1" }, "ips must be a list of addresses or ranges"],
    ];
    // Forms a resolver reads one way and a person another: 127.0.0.030 was stored as 127.0.0.24.
    for (const ambiguous of [
      "127.0.0.030",
      "127.0.0.030/32",
      "0x7f.0.0.1",
      "127.1",
      "2130706433",
      "010.1.1.1/24",
    ]) {
      cases.push([
        { ips: [ambiguous] },
        `'${ambiguous}' is ambiguous: write an IPv4 address as four decimal numbers without leading zeros`,
      ]);
    }
    cases.push([{ ips: ["::ffff:127.0.0.030"] }, "'::ffff:127.0.0.030' is not an IPv4 or IPv6 address"]);
    for (const [body, message] of cases) {
      const response = await save(token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json(), JSON.stringify(body)).toMatchObject({ success: false });
      expect(response.json().message).toContain(message);
    }
    expect((await read(token)).json().data.ips).toEqual(["192.0.2.50"]);
  });

  it("announces each change on the change feed, for the gateways", async () => {
    const { token, id } = await signIn(t.app, "allow-feed@example.com");
    const heard: string[] = [];
    const stop = await t.database.listen(CHANGES_CHANNEL, {
      notification: (payload) => heard.push(payload),
      live: () => {},
    });
    try {
      await save(token, { ips: ["192.0.2.200"] });
      await vi.waitFor(() => expect(heard).toContain(`allowlist:${id}`), { timeout: 2_000, interval: 10 });
    } finally {
      await stop();
    }
  });

  it("needs a signed-in caller", async () => {
    expect((await t.app.inject({ method: "GET", url: "/settings/allowlist" })).statusCode).toBe(401);
  });
});
