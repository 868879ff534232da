import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const INDEX =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-a1b2c3.js"></script></body></html>';

const APP_JS = `console.log(${JSON.stringify("app ".repeat(500))})`;

let distDir: string;
let t: TestApp;
beforeAll(async () => {
  distDir = mkdtempSync(path.join(tmpdir(), "bytetoll-dist-"));
  mkdirSync(path.join(distDir, "assets"));
  writeFileSync(path.join(distDir, "index.html"), INDEX);
  writeFileSync(path.join(distDir, "assets", "index-a1b2c3.js"), APP_JS);
  // What the web build writes beside each compressible file.
  writeFileSync(path.join(distDir, "assets", "index-a1b2c3.js.br"), brotliCompressSync(APP_JS));
  writeFileSync(path.join(distDir, "assets", "index-a1b2c3.js.gz"), gzipSync(APP_JS));
  writeFileSync(path.join(distDir, "favicon.svg"), "<svg/>");
  t = await createTestApp({ WEB_DIST_DIR: distDir });
});
afterAll(async () => {
  await t.close();
  rmSync(distDir, { recursive: true, force: true });
});

const html = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };

describe("serving the SPA", () => {
  it.each(["/", "/login", "/magic/auth/order/abc?magic_credential=x", "/no/such/page"])(
    "answers a browser's GET %s with index.html",
    async (url) => {
      const response = await t.app.inject({ method: "GET", url, headers: html });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toContain("text/html");
      expect(response.headers["cache-control"]).toBe("no-cache");
      expect(response.body).toBe(INDEX);
    },
  );

  it("keeps the page's security policy on a 304, which the browser copies onto its cached page", async () => {
    for (const url of ["/", "/login"]) {
      const first = await t.app.inject({ method: "GET", url, headers: html });
      expect(first.headers["content-security-policy"]).toContain("script-src 'self'");
      const validator = first.headers.etag
        ? { "if-none-match": String(first.headers.etag) }
        : { "if-modified-since": String(first.headers["last-modified"]) };
      const again = await t.app.inject({ method: "GET", url, headers: { ...html, ...validator } });
      expect(again.statusCode).toBe(304);
      expect(again.headers["content-security-policy"]).toContain("script-src 'self'");
    }
  });

  it("sends hashed scripts with their type guarded but without a page's policy", async () => {
    const asset = await t.app.inject({ method: "GET", url: "/assets/index-a1b2c3.js" });
    expect(asset.headers["x-content-type-options"]).toBe("nosniff");
    expect(asset.headers["cross-origin-resource-policy"]).toBe("same-origin");
    for (const name of ["content-security-policy", "x-frame-options", "x-ratelimit-limit"])
      expect(asset.headers[name], name).toBeUndefined();
    const page = await t.app.inject({ method: "GET", url: "/login", headers: html });
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["x-frame-options"]).toBe("SAMEORIGIN");
  });

  it("serves hashed assets with a long cache and other files without", async () => {
    const asset = await t.app.inject({ method: "GET", url: "/assets/index-a1b2c3.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const icon = await t.app.inject({ method: "GET", url: "/favicon.svg" });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers["cache-control"]).toBe("no-cache");
  });

  it("sends the build's brotli or gzip copy by the browser's Accept-Encoding, and says it varies", async () => {
    const url = "/assets/index-a1b2c3.js";
    const brotli = await t.app.inject({
      method: "GET",
      url,
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers["content-type"]).toContain("javascript");
    expect(brotli.headers.vary).toContain("Accept-Encoding");
    expect(brotli.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(APP_JS);

    const gzip = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(APP_JS);

    const plain = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toContain("Accept-Encoding");
    expect(plain.body).toBe(APP_JS);
  });

  it("answers unknown paths that do not ask for HTML with a JSON 404", async () => {
    const missingAsset = await t.app.inject({
      method: "GET",
      url: "/assets/missing.js",
      headers: { accept: "*/*" },
    });
    expect(missingAsset.statusCode).toBe(404);
    expect(missingAsset.json()).toEqual({ success: false, message: "Not found" });
    const api = await t.app.inject({
      method: "GET",
      url: "/no-such-api/xyz",
      headers: { accept: "application/json" },
    });
    expect(api.statusCode).toBe(404);
    expect(api.json().success).toBe(false);
  });

  it.each([
    "/assets/%c0%ae%c0%ae/index.html",
    "/assets/%E0%A4%A",
    "/assets/%ff.js",
    "/favicon%c0.svg",
    // The same for an API path: the router refuses it before any route.
    "/deals/%c0%ae",
  ])("answers a badly encoded path %s with a JSON 400", async (url) => {
    for (const accept of ["*/*", html.accept]) {
      const response = await t.app.inject({ method: "GET", url, headers: { accept } });
      expect(response.statusCode, `${url} ${response.body}`).toBe(400);
      expect(response.headers["content-type"]).toContain("application/json");
      expect(response.json()).toEqual({
        success: false,
        message: "Bad request: the path is not valid URL encoding.",
      });
    }
  });

  it("does not serve index.html for a POST to an unknown path", async () => {
    const response = await t.app.inject({ method: "POST", url: "/login", headers: html, payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: "Not found" });
  });

  it("keeps API routes ahead of the SPA", async () => {
    const response = await t.app.inject({ method: "GET", url: "/config", headers: html });
    expect(response.json().success).toBe(true);
  });
});

describe("the operator's console beside the admin API", () => {
  let admin: TestApp;
  beforeAll(async () => {
    admin = await createTestApp({ WEB_DIST_DIR: distDir, ADMIN_TOKEN: "spa-test-admin-token-0123456789" });
  });
  afterAll(async () => {
    await admin.close();
  });

  it.each([
    "/admin",
    "/admin/customers",
    "/admin/customers/3f0c6c8e-4c1a-4f7e-9d5b-7a1e2b3c4d5e",
    "/admin/orders?page=2",
    "/webhooks",
    "/subusers",
  ])("answers a browser opening %s with the SPA", async (url) => {
    const response = await admin.app.inject({ method: "GET", url, headers: html });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX);
  });

  it("leaves the same paths to the API for API clients", async () => {
    for (const accept of ["application/json", "*/*"]) {
      const response = await admin.app.inject({
        method: "GET",
        url: "/admin/customers",
        headers: { accept },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ success: false });
    }
    // The Webhooks page's path is the API's list of endpoints for API clients.
    const hooks = await admin.app.inject({
      method: "GET",
      url: "/webhooks",
      headers: { accept: "application/json" },
    });
    expect(hooks.statusCode).toBe(401);
    // So is the Sub-users page's the API's list of sub-users.
    const subusers = await admin.app.inject({
      method: "GET",
      url: "/subusers",
      headers: { accept: "application/json" },
    });
    expect(subusers.statusCode).toBe(401);
    const write = await admin.app.inject({ method: "POST", url: "/admin/deals", headers: html, payload: {} });
    expect(write.statusCode).toBe(401);
    // A path that merely starts with the same letters is not the console.
    const other = await admin.app.inject({
      method: "GET",
      url: "/administrator",
      headers: { accept: "application/json" },
    });
    expect(other.statusCode).toBe(404);
  });
});
