import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import type { Gateway } from "@bytetoll/gateway";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { EXAMPLE_TARGET_URL } from "../../../src/modules/public-config/integration-examples.ts";
import { AGENT_ENDPOINTS } from "../../../src/modules/public-config/integration-guide.ts";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, TEST_APP_URL, type TestApp } from "../../helpers/test-app.ts";
import { startTestGateway } from "../../helpers/test-gateway.ts";

const GUIDE = "/docs/integrations";
const ORIGIN_BODY = "hello from the origin";
const repoRoot = fileURLToPath(new URL("../../../../..", import.meta.url));
const run = promisify(execFile);

let database: TestDatabase;
let gateway: Gateway;
let origin: http.Server;
let t: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  origin = http.createServer((_request, response) => response.end(ORIGIN_BODY));
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  gateway = await startTestGateway(database);
  // The guide's examples name this gateway, as the Connect page does.
  t = await createTestApp(
    { GATEWAY_HOST: "127.0.0.1", GATEWAY_HTTP_PORT: String(gateway.httpPort) },
    { database },
  );
});
afterAll(async () => {
  await t?.close();
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
  await database?.close();
});

const HTML_ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** The text of the first code block in the guide's section `id`, as a reader copies it. */
function codeOf(html: string, id: string): string {
  const section = html.match(new RegExp(`<section id="${id}">([\\s\\S]*?)</section>`))?.[1] ?? "";
  const escaped = section.match(/<pre><code>([\s\S]*?)<\/code><\/pre>/)?.[1];
  if (escaped === undefined) throw new Error(`no code in section ${id}`);
  return escaped.replace(/&(lt|gt|quot|#39);/g, (entity) => HTML_ENTITIES[entity]!).replaceAll("&amp;", "&");
}

describe("GET /config: the SDK and MCP links", () => {
  it("point at the built-in guide's sections by default", async () => {
    const { data } = (await t.app.inject({ method: "GET", url: "/config" })).json();
    expect(data).toMatchObject({
      node_sdk_url: `${TEST_APP_URL}${GUIDE}#nodejs`,
      php_sdk_url: `${TEST_APP_URL}${GUIDE}#php`,
      mcp_server_url: `${TEST_APP_URL}${GUIDE}#mcp`,
    });
  });

  it("point where the operator published the SDKs and the MCP server", async () => {
    const custom = await createTestApp(
      {
        NODE_SDK_URL: "https://www.npmjs.com/package/@example/bytetoll",
        PHP_SDK_URL: "https://packagist.org/packages/example/bytetoll",
        MCP_SERVER_URL: "https://github.com/example/bytetoll-mcp",
      },
      { database },
    );
    onTestFinished(() => custom.close());
    const { data } = (await custom.app.inject({ method: "GET", url: "/config" })).json();
    expect(data).toMatchObject({
      node_sdk_url: "https://www.npmjs.com/package/@example/bytetoll",
      php_sdk_url: "https://packagist.org/packages/example/bytetoll",
      mcp_server_url: "https://github.com/example/bytetoll-mcp",
    });
  });
});

describe("the integration guide", () => {
  it("is an HTML page with a Node.js, a PHP and an MCP section about this server", async () => {
    const response = await t.app.inject({ method: "GET", url: GUIDE, headers: { accept: "text/html" } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    for (const id of ["nodejs", "php", "mcp"]) expect(response.body).toContain(`<section id="${id}">`);
    expect(response.body).toContain(`const API = &quot;${TEST_APP_URL}&quot;;`);
    expect(response.body).toContain(`const API = &#39;${TEST_APP_URL}&#39;;`);
    expect(response.body).toContain(`${TEST_APP_URL}/docs/json`);
    expect(response.body.match(/<a href="\/docs">API reference<\/a>/g)).toHaveLength(3);
    // The CSP allows no inline script; the page needs none.
    expect(response.body).not.toContain("<script");
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
  });

  it("leaves the API reference and its OpenAPI document under /docs working", async () => {
    const ui = await t.app.inject({ method: "GET", url: "/docs" });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain("swagger");
    const openapi = await t.app.inject({ method: "GET", url: "/docs/json" });
    expect(openapi.statusCode).toBe(200);
    expect(openapi.json().paths).not.toHaveProperty(GUIDE);
  });

  it("lists for agents only calls the OpenAPI document has, with a bearer token where they need one", async () => {
    const { paths } = (await t.app.inject({ method: "GET", url: "/docs/json" })).json();
    for (const endpoint of AGENT_ENDPOINTS) {
      const operation = paths[endpoint.path]?.[endpoint.method.toLowerCase()];
      expect(operation, `${endpoint.method} ${endpoint.path}`).toBeDefined();
      expect(operation.security ?? [], `${endpoint.method} ${endpoint.path}`).toEqual(
        endpoint.auth ? [{ bearer: [] }] : [],
      );
    }
  });

  it("has a Node.js program that runs as shown against this server with an API token", async () => {
    const user = await signIn(t.app, "guide-node@example.com");
    const tokenResponse = await t.app.inject({
      method: "GET",
      url: "/account/api-token",
      headers: bearer(user.token),
    });
    const apiToken: string = tokenResponse.json().data.token;
    const address = await t.app.listen({ host: "127.0.0.1", port: 0 });
    const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/`;

    const html = (await t.app.inject({ method: "GET", url: GUIDE })).body;
    const program = codeOf(html, "nodejs")
      .replace(JSON.stringify(TEST_APP_URL), JSON.stringify(address))
      .replace(JSON.stringify(EXAMPLE_TARGET_URL), JSON.stringify(originUrl));
    // A directory of its own that sees the repository's node_modules (where undici is installed).
    const dir = mkdtempSync(join(tmpdir(), "bytetoll-guide-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
    writeFileSync(join(dir, "bytetoll.mjs"), program);

    const { stdout } = await run(process.execPath, ["bytetoll.mjs"], {
      cwd: dir,
      env: { PATH: process.env.PATH, BYTETOLL_API_TOKEN: apiToken },
      timeout: 20_000,
    });
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe("Balance: 1 GB");
    expect(lines.slice(1, 8)).toHaveLength(7);
    for (const line of lines.slice(1, 8)) {
      expect(line).toMatch(/^\d{4}-\d{2}-\d{2} \d+(\.\d+)? GB mobile, \d+(\.\d+)? GB datacenter$/);
    }
    expect(lines.slice(8)).toEqual([ORIGIN_BODY]);
  });
});
