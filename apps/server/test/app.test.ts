import { NUL_IN_TEXT } from "@bytetoll/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { AppError } from "../src/errors.ts";
import { createTestApp, TEST_APP_URL, type TestApp } from "./helpers/test-app.ts";

const ADMIN_TOKEN = "admin-token-0123456789abcdef";
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    { ADMIN_TOKEN },
    {
      beforeReady: (app) => {
        app.get("/test/explode", async () => {
          throw new Error("database password is hunter2");
        });
        // A value no schema checked, straight to SQL: the driver's error arrives wrapped by drizzle.
        app.get("/test/nul-in-sql", async () => {
          await app.database.db.execute(sql`SELECT ${"a\u0000b"}::text`);
          return { success: true };
        });
        app.get("/test/hidden-app-error", async () => {
          throw new AppError(503, "queue table is locked by pid 4242");
        });
        app.get("/test/exposed-app-error", async () => {
          throw new AppError(502, "The payment provider is unavailable.", "provider_down", { expose: true });
        });
      },
    },
  );
});
afterAll(() => t.close());

describe("health", () => {
  it("answers /healthz while the process is up", async () => {
    const response = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: { status: "ok" } });
  });

  it("answers /readyz when the database answers", async () => {
    const response = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(response.statusCode).toBe(200);
  });
});

describe("request ids", () => {
  it("echoes a caller's x-request-id", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "abc-123" },
    });
    expect(response.headers["x-request-id"]).toBe("abc-123");
  });

  it("replaces a malformed x-request-id with a fresh one", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "bad id <script>" },
    });
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("error model", () => {
  it("hides the details of a 5xx and says Internal server error", async () => {
    const response = await t.app.inject({ method: "GET", url: "/test/explode" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ success: false, message: "Internal server error" });
    expect(response.body).not.toContain("hunter2");
    expect(response.headers["x-request-id"]).toMatch(/^\S+$/);
  });

  it("hides an AppError's 5xx message unless it is marked for the customer", async () => {
    const hidden = await t.app.inject({ method: "GET", url: "/test/hidden-app-error" });
    expect(hidden.statusCode).toBe(503);
    expect(hidden.json()).toEqual({ success: false, message: "Internal server error" });
    const exposed = await t.app.inject({ method: "GET", url: "/test/exposed-app-error" });
    expect(exposed.statusCode).toBe(502);
    expect(exposed.json()).toEqual({ success: false, message: "The payment provider is unavailable." });
  });

  it("answers malformed JSON with a 400", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
  });

  it("answers a wrong content type with a 4xx", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: { "content-type": "application/xml" },
      payload: "<email/>",
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().success).toBe(false);
  });

  it("names the field in a validation message", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/magic/check",
      payload: { email: "a@example.com", purchaseAmount: "lots" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain("purchaseAmount");
  });

  it("answers an unknown API path with a JSON 404", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/nope",
      headers: { accept: "application/json" },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: "Not found" });
  });
});

describe("text with NUL characters", () => {
  it("refuses a NUL in a body field before it reaches SQL (an admin credit note)", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/admin/credits",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { email: "nobody@example.com", gb: 1, note: "a\u0000b" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: NUL_IN_TEXT });
  });

  it("finds a NUL however deep the body nests it", async () => {
    const depth = 50_000;
    const response = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: { "content-type": "application/json" },
      payload: `{"email":${"[".repeat(depth)}"a\\u0000"${"]".repeat(depth)}}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: NUL_IN_TEXT });
  });

  it("refuses a NUL in the query string", async () => {
    const response = await t.app.inject({ method: "GET", url: "/dev/outbox/messages?to=a%00b" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: NUL_IN_TEXT });
  });

  it("answers 400 when the database refuses a value, reading the code drizzle wraps", async () => {
    const response = await t.app.inject({ method: "GET", url: "/test/nul-in-sql" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: "Invalid request: a value is malformed." });
  });
});

describe("GET /config", () => {
  it("returns the operator's numbers", async () => {
    const response = await t.app.inject({ method: "GET", url: "/config" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        price_per_gb_usd: 3,
        dc_price_per_gb_usd: 0.3,
        free_gb: 1,
        gateway: {
          host: "localhost",
          http_port: 8080,
          https_port: 8443,
          socks_port: 1080,
          exit_countries: [],
        },
        docs_url: `${TEST_APP_URL}/docs`,
        support_url: `${TEST_APP_URL}/docs`,
        terms_url: `${TEST_APP_URL}/terms`,
        privacy_url: `${TEST_APP_URL}/privacy`,
        node_sdk_url: `${TEST_APP_URL}/docs/integrations#nodejs`,
        php_sdk_url: `${TEST_APP_URL}/docs/integrations#php`,
        mcp_server_url: `${TEST_APP_URL}/docs/integrations#mcp`,
        // Deals' share links point at the marketing site; it defaults to the dashboard.
        marketing_url: TEST_APP_URL,
        crypto_provider: "sandbox",
        card_provider: "sandbox",
      },
    });
  });
});

describe("without a web build", () => {
  it("tells the operator to run npm run build", async () => {
    const response = await t.app.inject({ method: "GET", url: "/login", headers: { accept: "text/html" } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("npm run build");
  });
});

describe("legal pages", () => {
  it.each(["/terms", "/privacy"])(
    "serves a placeholder at %s until the operator sets its URL",
    async (url) => {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain("has not published this document yet");
    },
  );

  it("leaves the path to the SPA when the operator links elsewhere", async () => {
    const custom = await createTestApp({ TERMS_URL: "https://example.com/terms" }, { database: t.database });
    onTestFinished(() => custom.close());
    expect((await custom.app.inject({ method: "GET", url: "/terms" })).statusCode).toBe(404);
    const config = await custom.app.inject({ method: "GET", url: "/config" });
    expect(config.json().data.terms_url).toBe("https://example.com/terms");
  });
});

describe("security headers and CORS", () => {
  it("sends an API response the headers that matter for data: nothing may load or frame it", async () => {
    const response = await t.app.inject({ method: "GET", url: "/config" });
    expect(response.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(response.headers["cross-origin-resource-policy"]).toBe("same-origin");
    expect(response.headers["strict-transport-security"]).toBeUndefined();
    const refused = await t.app.inject({ method: "GET", url: "/account/status" });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it("sends an HTML page helmet's whole set, with the policy the SPA runs under", async () => {
    const response = await t.app.inject({ method: "GET", url: "/terms" });
    expect(response.headers["content-type"]).toContain("text/html");
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(response.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(response.headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
    expect(response.headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("asks browsers for https only when APP_URL is https", async () => {
    const secure = await createTestApp({ APP_URL: "https://dash.example.com" }, { database: t.database });
    onTestFinished(() => secure.close());
    const response = await secure.app.inject({ method: "GET", url: "/config" });
    expect(response.headers["strict-transport-security"]).toContain("max-age=");
    const page = await secure.app.inject({ method: "GET", url: "/terms" });
    expect(page.headers["strict-transport-security"]).toContain("max-age=");
    expect(page.headers["content-security-policy"]).toContain("upgrade-insecure-requests");
    expect(page.headers["content-security-policy"]).toContain("connect-src 'self' wss://dash.example.com");
  });

  it("allows APP_URL as a CORS origin, without credentials", async () => {
    const response = await t.app.inject({
      method: "OPTIONS",
      url: "/auth/session",
      headers: { origin: TEST_APP_URL, "access-control-request-method": "GET" },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe(TEST_APP_URL);
    expect(response.headers["access-control-allow-credentials"]).toBeUndefined();
  });

  it("answers a preflight from APP_URL with what it may send, for any path", async () => {
    const response = await t.app.inject({
      method: "OPTIONS",
      url: "/transactions/5f0c7a52-0d4b-4c1f-9a51-3c9b3c0f0e11/payment",
      headers: {
        origin: TEST_APP_URL,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe(TEST_APP_URL);
    expect(response.headers["access-control-allow-methods"]).toContain("POST");
    expect(response.headers["access-control-allow-headers"]).toContain("Authorization");
    expect(response.headers["access-control-allow-headers"]).toContain("Content-Type");
    expect(response.headers.vary).toContain("Origin");
    const read = await t.app.inject({ method: "GET", url: "/config", headers: { origin: TEST_APP_URL } });
    expect(read.headers["access-control-allow-origin"]).toBe(TEST_APP_URL);
    expect(read.headers["access-control-expose-headers"]).toBe("X-Request-Id");
  });

  it("does not allow any other origin", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/config",
      headers: { origin: "https://evil.example" },
    });
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: "/auth/session",
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(preflight.headers["access-control-allow-methods"]).toBeUndefined();
  });
});

describe("API reference", () => {
  it("serves the reference page at /docs", async () => {
    const response = await t.app.inject({ method: "GET", url: "/docs/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
  });

  it("publishes OpenAPI generated from the route schemas", async () => {
    const response = await t.app.inject({ method: "GET", url: "/docs/json" });
    expect(response.statusCode).toBe(200);
    const spec = response.json();
    expect(spec.openapi).toMatch(/^3\./);
    const login = spec.paths["/auth/login"].post;
    expect(login.requestBody.content["application/json"].schema.properties.email).toBeDefined();
    expect(spec.paths["/auth/session"].get.security).toEqual([{ bearer: [] }]);
  });
});
