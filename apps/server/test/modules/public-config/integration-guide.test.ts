import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ProxyAgent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  EXAMPLE_TARGET_URL,
  MCP_TOKEN_PLACEHOLDER,
} from "../../../src/modules/public-config/integration-examples.ts";
import { AGENT_ENDPOINTS } from "../../../src/modules/public-config/integration-guide.ts";
import { ORIGIN_BODY, type RunningInstall, startRunningInstall } from "../../helpers/running-install.ts";
import { createTestApp } from "../../helpers/test-app.ts";
import { ensureIntegrationsBuilt } from "../downloads/built-packages.ts";

const GUIDE = "/docs/integrations";
const repoRoot = fileURLToPath(new URL("../../../../..", import.meta.url));
const run = promisify(execFile);
/** npm may not reach any registry: what the guide installs must come from this server alone. */
const NO_REGISTRY = "http://127.0.0.1:9/";
const hasPhp = (() => {
  try {
    execFileSync("php", ["-r", "exit(extension_loaded('curl') ? 0 : 1);"]);
    return true;
  } catch {
    return false;
  }
})();

let install: RunningInstall;
let html: string;

beforeAll(async () => {
  await ensureIntegrationsBuilt();
  install = await startRunningInstall();
  html = (await install.t.app.inject({ method: "GET", url: GUIDE })).body;
}, 120_000);
afterAll(async () => {
  await install?.close();
});

const HTML_ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** The text of code block `index` in the guide's section `id`, as a reader copies it. */
function codeOf(id: string, index = 0): string {
  const section = html.match(new RegExp(`<section id="${id}">([\\s\\S]*?)</section>`))?.[1] ?? "";
  const escaped = [...section.matchAll(/<pre[^>]*><code>([\s\S]*?)<\/code><\/pre>/g)][index]?.[1];
  if (escaped === undefined) throw new Error(`no code block ${index} in section ${id}`);
  return escaped.replace(/&(lt|gt|quot|#39);/g, (entity) => HTML_ENTITIES[entity]!).replaceAll("&amp;", "&");
}

/** A fresh folder with its own npm cache, removed after the test. */
function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "bytetoll-guide-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const npmEnv = (dir: string) => ({
  PATH: process.env.PATH,
  HOME: dir,
  npm_config_cache: join(dir, ".npm"),
  npm_config_registry: NO_REGISTRY,
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
});

describe("GET /config: the SDK and MCP links", () => {
  it("point at the built-in guide's sections by default", async () => {
    const { data } = (await install.t.app.inject({ method: "GET", url: "/config" })).json();
    expect(data).toMatchObject({
      node_sdk_url: `${install.url}${GUIDE}#nodejs`,
      php_sdk_url: `${install.url}${GUIDE}#php`,
      mcp_server_url: `${install.url}${GUIDE}#mcp`,
    });
  });

  it("point where the operator published the SDKs and the MCP server", async () => {
    const custom = await createTestApp(
      {
        NODE_SDK_URL: "https://www.npmjs.com/package/@example/bytetoll",
        PHP_SDK_URL: "https://packagist.org/packages/example/bytetoll",
        MCP_SERVER_URL: "https://github.com/example/bytetoll-mcp",
      },
      { database: install.t.database },
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
  it("is an HTML page whose sections install the SDKs and the MCP server from this server", async () => {
    const response = await install.t.app.inject({
      method: "GET",
      url: GUIDE,
      headers: { accept: "text/html" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    for (const id of ["nodejs", "php", "mcp"]) expect(response.body).toContain(`<section id="${id}">`);
    expect(codeOf("nodejs")).toBe(`npm install ${install.url}/downloads/bytetoll-sdk.tgz undici`);
    expect(codeOf("php")).toBe(
      `curl -fsSLO ${install.url}/downloads/bytetoll-php.zip && unzip -q bytetoll-php.zip`,
    );
    expect(JSON.parse(codeOf("mcp")).mcpServers.bytetoll).toEqual({
      command: "npx",
      args: ["-y", `${install.url}/downloads/bytetoll-mcp.tgz`],
      env: { BYTETOLL_URL: install.url, BYTETOLL_API_TOKEN: MCP_TOKEN_PLACEHOLDER },
    });
    expect(response.body).not.toContain("There is no SDK");
    expect(response.body).toContain(`${install.url}/docs/json`);
    expect(response.body.match(/<a href="\/docs">API reference<\/a>/g)).toHaveLength(3);
    // The CSP allows no inline script; the page needs none.
    expect(response.body).not.toContain("<script");
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
  });

  it("leaves the API reference and its OpenAPI document under /docs working", async () => {
    const ui = await install.t.app.inject({ method: "GET", url: "/docs" });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain("swagger");
    const openapi = await install.t.app.inject({ method: "GET", url: "/docs/json" });
    expect(openapi.statusCode).toBe(200);
    expect(openapi.json().paths).not.toHaveProperty(GUIDE);
  });

  it("lists for agents only calls the OpenAPI document has, with a bearer token where they need one", async () => {
    const { paths } = (await install.t.app.inject({ method: "GET", url: "/docs/json" })).json();
    for (const endpoint of AGENT_ENDPOINTS) {
      const operation = paths[endpoint.path]?.[endpoint.method.toLowerCase()];
      expect(operation, `${endpoint.method} ${endpoint.path}`).toBeDefined();
      expect(operation.security ?? [], `${endpoint.method} ${endpoint.path}`).toEqual(
        endpoint.auth ? [{ bearer: [] }] : [],
      );
    }
  });

  it("has a Node.js install command and program that run as shown with an API token", async () => {
    const apiToken = await install.apiToken("guide-node@example.com");
    const dir = scratchDir();
    writeFileSync(join(dir, "package.json"), '{ "private": true }');
    // As shown, except that undici (a public npm package) is this repository's copy.
    const command = codeOf("nodejs").replace(/ undici$/, "");
    await run("sh", ["-c", command], { cwd: dir, env: npmEnv(dir), timeout: 60_000 });
    symlinkSync(join(repoRoot, "node_modules/undici"), join(dir, "node_modules/undici"), "dir");

    const program = codeOf("nodejs", 1).replace(
      JSON.stringify(EXAMPLE_TARGET_URL),
      JSON.stringify(install.originUrl),
    );
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
  }, 90_000);

  it("has an MCP configuration whose npx command serves the tools over stdio", async () => {
    const apiToken = await install.apiToken("guide-mcp@example.com");
    const dir = scratchDir();
    const { command, args, env } = JSON.parse(codeOf("mcp")).mcpServers.bytetoll;
    const transport = new StdioClientTransport({
      command,
      args,
      env: { ...npmEnv(dir), ...env, BYTETOLL_API_TOKEN: apiToken },
      cwd: dir,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    const client = new Client({ name: "guide-test", version: "1.0.0" });
    await client.connect(transport);
    onTestFinished(() => client.close());
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, name).toBeFalsy();
      const [first] = result.content;
      return JSON.parse(first?.type === "text" ? first.text : "null");
    };

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["get_balance", "get_proxy"]));
    expect(await call("get_balance")).toEqual({ balance_gb: 1, balance_bytes: 1e9 });
    const proxy = await call("get_proxy");
    const response = await undiciFetch(install.originUrl, { dispatcher: new ProxyAgent(proxy.url) });
    expect(await response.text()).toBe(ORIGIN_BODY);
    // stdout carries only the protocol; the server's own words went to stderr.
    expect(stderr).toContain(`bytetoll-mcp: serving ${install.url} over stdio`);
  }, 90_000);

  it.skipIf(!hasPhp)("has a PHP download command and program that run as shown", async () => {
    const apiToken = await install.apiToken("guide-php@example.com");
    const dir = scratchDir();
    await run("sh", ["-c", codeOf("php")], { cwd: dir, timeout: 30_000 });
    const program = codeOf("php", 1).replace(`'${EXAMPLE_TARGET_URL}'`, `'${install.originUrl}'`);
    writeFileSync(join(dir, "bytetoll.php"), program);
    const { stdout } = await run("php", ["bytetoll.php"], {
      cwd: dir,
      env: { PATH: process.env.PATH, BYTETOLL_API_TOKEN: apiToken },
      timeout: 20_000,
    });
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe("Balance: 1 GB");
    expect(lines.slice(1, 8)).toHaveLength(7);
    expect(lines.slice(8)).toEqual([ORIGIN_BODY]);
  });
});
