import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Upstream } from "@bytetoll/contracts";
import { upstreamsKey } from "@bytetoll/db";
import { Prober } from "@bytetoll/gateway";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { audit, type ConsoleApp, createConsoleApp, tokenHeaders } from "./helpers.ts";
import { startTinyproxy, type Tinyproxy } from "./support/exit-proxy.ts";

let t: ConsoleApp;
let tiny: Tinyproxy;
let echo: http.Server;
let echoUrl: string;

beforeAll(async () => {
  t = await createConsoleApp({
    MOBILE_UPSTREAMS: "direct,http://envuser:envsecret@127.0.0.1:9?country=fr",
    EGRESS_ALLOW: "127.0.0.1/32",
  });
  tiny = await startTinyproxy("u1", "p-secret-1");
  // An echo service: answers the caller's address as ip-api.com does.
  echo = http.createServer((request, response) => {
    response.writeHead(200, { "content-type": "application/json", connection: "close" });
    response.end(
      JSON.stringify({ query: request.socket.remoteAddress?.replace(/^::ffff:/, ""), countryCode: "de" }),
    );
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/json`;
}, 30_000);
afterAll(async () => {
  await t?.close();
  await tiny?.close();
  await new Promise((resolve) => echo?.close(resolve));
});

const call = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: tokenHeaders,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const valid = {
  name: "exit-a",
  pool: "mobile",
  url: "http://u1:p-secret-1@127.0.0.1:1",
  cost_per_gb_usd: 1.25,
};

describe("the operator's exits API", () => {
  it("lists the environment's exits read-only, their passwords masked", async () => {
    const response = await call("GET", "/admin/upstreams");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).not.toContain("envsecret");
    const exits = response.json().data as Upstream[];
    expect(exits.filter((e) => e.source === "environment").map((e) => [e.id, e.url, e.countries])).toEqual([
      ["env:mobile:0", "direct", []],
      ["env:mobile:1", "http://envuser:****@127.0.0.1:9", ["FR"]],
      ["env:datacenter:0", "direct", []],
    ]);
    for (const method of ["PATCH", "DELETE"] as const) {
      const refused = await call(
        method,
        "/admin/upstreams/env:mobile:1",
        method === "PATCH" ? { weight: 2 } : undefined,
      );
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/read-only/);
    }
  });

  it.each([
    [{ ...valid, pool: "residential" }, "pool"],
    [{ ...valid, url: "ftp://x@y" }, "url"],
    [{ ...valid, url: "http://a b" }, "url"],
    [{ ...valid, countries: ["xx"] }, "countries"],
    [{ ...valid, cost_per_gb_usd: -1 }, "cost_per_gb_usd"],
    [{ ...valid, weight: 101 }, "weight"],
    [{ ...valid, weight: 0 }, "weight"],
    [{ ...valid, monthly_budget_gb: 0 }, "monthly_budget_gb"],
    [{ ...valid, name: "" }, "name"],
  ])("refuses %j with a 400 naming %s, and adds nothing", async (payload, field) => {
    const response = await call("POST", "/admin/upstreams", payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ success: false });
    expect(response.json().message).toContain(field);
    const exits = (await call("GET", "/admin/upstreams")).json().data as Upstream[];
    expect(exits.filter((e) => e.source === "console")).toHaveLength(0);
  });

  it("adds, changes, tests and deletes an exit; every change is in the audit log without the password", async () => {
    const created = await call("POST", "/admin/upstreams", {
      ...valid,
      url: `http://u1:p-secret-1@127.0.0.1:${tiny.port}`,
    });
    expect(created.statusCode, created.body).toBe(201);
    const exit = created.json().data as Upstream;
    expect(exit).toMatchObject({
      name: "exit-a",
      url: `http://u1:****@127.0.0.1:${tiny.port}`,
      cost_per_gb_usd: 1.25,
      weight: 1,
      monthly_budget_gb: null,
      enabled: true,
      source: "console",
      state: "up",
      last_hour: { bytes: 0, connects: 0, failures: 0, median_connect_ms: null },
    });
    expect((await call("POST", "/admin/upstreams", valid)).statusCode).toBe(409);
    // Customers are offered its countries with the environment's.
    const japan = await call("POST", "/admin/upstreams", { ...valid, name: "japan", countries: ["jp"] });
    await vi.waitFor(async () =>
      expect(
        (await t.app.inject({ method: "GET", url: "/config" })).json().data.gateway.exit_countries,
      ).toEqual(["FR", "JP"]),
    );
    await call("PATCH", `/admin/upstreams/${japan.json().data.id}`, { enabled: false });
    await vi.waitFor(async () =>
      expect(
        (await t.app.inject({ method: "GET", url: "/config" })).json().data.gateway.exit_countries,
      ).toEqual(["FR"]),
    );
    expect((await call("DELETE", `/admin/upstreams/${japan.json().data.id}`)).statusCode).toBe(200);
    // A username template keeps its placeholders; only the password is masked.
    const template = await call("POST", "/admin/upstreams", {
      ...valid,
      name: "template",
      url: "socks5://acct-country-{country}-session-{session}:tpl-secret@127.0.0.1:1080",
    });
    expect(template.statusCode, template.body).toBe(201);
    expect(template.json().data.url).toBe(
      "socks5://acct-country-{country}-session-{session}:****@127.0.0.1:1080",
    );
    expect((await call("DELETE", `/admin/upstreams/${template.json().data.id}`)).statusCode).toBe(200);

    const tested = await call("POST", `/admin/upstreams/${exit.id}/test`, { url: echoUrl });
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.json().data).toMatchObject({ ok: true, ip: "127.0.0.1", country: "DE", error: null });
    expect(tested.json().data.connect_ms).toBeGreaterThanOrEqual(0);

    const changed = await call("PATCH", `/admin/upstreams/${exit.id}`, {
      weight: 5,
      url: `http://u1:wrong@127.0.0.1:${tiny.port}`,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ weight: 5, cost_per_gb_usd: 1.25 });
    const failed = (await call("POST", `/admin/upstreams/${exit.id}/test`, { url: echoUrl })).json().data;
    expect(failed).toMatchObject({ ok: false, ip: null });
    expect(failed.error).toBeTruthy();
    expect((await call("PATCH", `/admin/upstreams/${exit.id}`, { weight: 500 })).statusCode).toBe(400);

    expect((await call("DELETE", `/admin/upstreams/${exit.id}`)).statusCode).toBe(200);
    expect((await call("DELETE", `/admin/upstreams/${exit.id}`)).statusCode).toBe(404);

    const rows = (await audit(t.app, `subject=${exit.id}`)).filter((row) => row.subject_type === "upstream");
    expect(rows.map((row) => row.action).sort()).toEqual([
      "upstream.create",
      "upstream.delete",
      "upstream.update",
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/p-secret-1|wrong/);
    expect(rows.find((row) => row.action === "upstream.update")?.after).toMatchObject({ weight: 5 });
  });

  it("the Intelligence prober follows the console's exits as the gateways do", async () => {
    const prober = new Prober(t.config.gateway, { timeoutMs: 5_000 });
    const key = upstreamsKey(t.config.gateway.upstreamsKey?.secret, t.config.DATA_DIR);
    const stop = await prober.followConsoleExits(t.database, key, pino({ level: "silent" }));
    try {
      const created = await call("POST", "/admin/upstreams", {
        ...valid,
        name: "probe-exit",
        url: `http://u1:p-secret-1@127.0.0.1:${tiny.port}`,
      });
      expect(created.statusCode, created.body).toBe(201);
      const { port } = echo.address() as AddressInfo;
      const marker = `/probe-marker-${Date.now()}`;
      // Round robin over the environment's direct exit and the new one: within a few probes one
      // goes through tinyproxy (it logs the request it relayed).
      await vi.waitFor(
        async () => {
          const probe = await prober.fetch("mobile", "http", "127.0.0.1", port, marker);
          expect(probe.status).toBe(200);
          expect(tiny.log()).toContain(marker);
        },
        { timeout: 10_000, interval: 50 },
      );
      await call("DELETE", `/admin/upstreams/${created.json().data.id}`);
    } finally {
      await stop();
    }
  });

  it("refuses margins without a proper range, naming the field", async () => {
    const bad = await call("GET", "/admin/margins?from=2026-13&to=2026-11-01&group_by=day");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("from");
    const backwards = await call("GET", "/admin/margins?from=2026-11-02&to=2026-11-01");
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toContain("to");
    const empty = await call("GET", "/admin/margins?from=2026-11-01&to=2026-11-30&group_by=pool");
    expect(empty.json().data).toMatchObject({
      rows: [],
      total: { bytes: 0, billed_usd: 0, cost_usd: 0, margin_usd: 0 },
    });
  });
});

describe("an exit test in a process that does not host the gateway", () => {
  it("answers 409 with a reason and tests nothing", async () => {
    const bare = await createConsoleApp(
      { MOBILE_UPSTREAMS: "http://envuser:envsecret@127.0.0.1:9", EGRESS_ALLOW: "127.0.0.1/32" },
      { gatewayHost: false },
    );
    try {
      const listed = await bare.app.inject({ method: "GET", url: "/admin/upstreams", headers: tokenHeaders });
      const environmentExit = (listed.json().data as Upstream[]).find((row) => row.id.startsWith("env:"));
      expect(environmentExit, listed.body).toBeDefined();
      const tested = await bare.app.inject({
        method: "POST",
        url: `/admin/upstreams/${environmentExit?.id}/test`,
        headers: tokenHeaders,
        payload: { url: echoUrl },
      });
      expect(tested.statusCode, tested.body).toBe(409);
      expect(tested.json()).toEqual({
        success: false,
        message: "This server was started without the gateway, so it cannot test an exit",
      });
    } finally {
      await bare.close();
    }
  });
});
