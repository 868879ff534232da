import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "bytetoll-config-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const base = { JWT_SECRET: "x".repeat(40) };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...base, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("gives a complete local product with nothing set", () => {
    const config = loadConfig({ DATA_DIR: path.join(scratch, "defaults") });
    expect(config).toMatchObject({
      PORT: 3000,
      APP_URL: "http://localhost:3000",
      CRYPTO_PROVIDER: "sandbox",
      GATEWAY_HOST: "localhost",
      GATEWAY_HTTP_PORT: 8080,
      GATEWAY_HTTPS_PORT: 8443,
      MOBILE_UPSTREAMS: ["direct"],
      DATACENTER_UPSTREAMS: ["direct"],
      EGRESS_ALLOW: [],
      PRICE_PER_GB_USD: 3,
      DC_PRICE_PER_GB_USD: 0.3,
      FREE_GB: 1,
      NODE_ENV: "development",
      LOG_LEVEL: "info",
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
  });

  it("derives APP_URL from PORT and GATEWAY_HOST from APP_URL", () => {
    expect(loadConfig({ ...base, PORT: "4000" }).APP_URL).toBe("http://localhost:4000");
    const config = loadConfig({ ...base, APP_URL: "https://proxy.example.com/" });
    expect(config.APP_URL).toBe("https://proxy.example.com");
    expect(config.GATEWAY_HOST).toBe("proxy.example.com");
  });

  it("sends the SDK and MCP links to the built-in integration guide unless the operator sets them", () => {
    const config = loadConfig({ ...base, APP_URL: "https://proxy.example.com" });
    expect(config.NODE_SDK_URL).toBe("https://proxy.example.com/docs/integrations#nodejs");
    expect(config.PHP_SDK_URL).toBe("https://proxy.example.com/docs/integrations#php");
    expect(config.MCP_SERVER_URL).toBe("https://proxy.example.com/docs/integrations#mcp");
    const custom = loadConfig({ ...base, NODE_SDK_URL: "https://www.npmjs.com/package/@example/bytetoll" });
    expect(custom.NODE_SDK_URL).toBe("https://www.npmjs.com/package/@example/bytetoll");
  });

  it("parses lists and numbers", () => {
    const config = loadConfig({
      ...base,
      MOBILE_UPSTREAMS: "http://a:1, socks5://b:2",
      EGRESS_ALLOW: "127.0.0.0/8,::1/128",
      PRICE_PER_GB_USD: "2.5",
      FREE_GB: "0",
    });
    expect(config.MOBILE_UPSTREAMS).toEqual(["http://a:1", "socks5://b:2"]);
    expect(config.EGRESS_ALLOW).toEqual(["127.0.0.0/8", "::1/128"]);
    expect(config.PRICE_PER_GB_USD).toBe(2.5);
    expect(config.FREE_GB).toBe(0);
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["APP_URL", "not a url"],
    ["DATABASE_URL", "mysql://x"],
    ["REDIS_URL", "http://x"],
    ["SMTP_URL", "mail.example.com"],
    ["JWT_SECRET", "short"],
    ["CRYPTO_PROVIDER", "paypal"],
    ["GATEWAY_HTTP_PORT", "0"],
    ["MOBILE_UPSTREAMS", "ftp://x"],
    ["EGRESS_ALLOW", "10.0.0.0/33"],
    ["PRICE_PER_GB_USD", "-1"],
    ["FREE_GB", "lots"],
    ["NODE_ENV", "staging"],
    ["LOG_LEVEL", "loud"],
    ["TRUST_PROXY", "maybe"],
    ["TRUST_PROXY", "10.0.0.0/33"],
    ["MAX_CONNECTIONS", "0"],
    ["HEADERS_TIMEOUT_MS", "soon"],
    ["METRICS_TOKEN", "short"],
    ["NODE_SDK_URL", "npmjs.com/package/bytetoll"],
    ["PHP_SDK_URL", "ftp://example.com/sdk"],
    ["MCP_SERVER_URL", "javascript:alert(1)"],
    ["GATEWAY_MAX_CONNECTIONS", "0"],
    ["GATEWAY_HEAD_TIMEOUT_MS", "soon"],
    ["GATEWAY_METRICS_PORT", "on"],
    ["EGRESS_ALLOW_TARGETS", "127.0.0.1/32"],
    ["UPSTREAM_CA_FILE", "/nonexistent/ca.pem"],
  ])("names %s when it is %j", (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}: `));
  });

  it("reads TRUST_PROXY as a number of hops or a list of proxy addresses; true is one hop", () => {
    const trust = (value: string) => loadConfig({ ...base, TRUST_PROXY: value }).TRUST_PROXY;
    expect(loadConfig(base).TRUST_PROXY).toBe(false);
    expect(trust("false")).toBe(false);
    expect(trust("true")).toBe(1);
    expect(trust("2")).toBe(2);
    expect(trust("10.0.0.0/8, 127.0.0.1")).toEqual(["10.0.0.0/8", "127.0.0.1"]);
    expect(trust("loopback")).toEqual(["loopback"]);
    expect(problemsOf({ TRUST_PROXY: "everyone" })[0]).toContain("a number of proxy hops (1)");
  });

  it("listens on loopback in development and everywhere in production unless HOST says otherwise", () => {
    expect(loadConfig(base).HOST).toBe("127.0.0.1");
    expect(loadConfig({ ...base, NODE_ENV: "production" }).HOST).toBe("0.0.0.0");
    expect(loadConfig({ ...base, HOST: "0.0.0.0" }).HOST).toBe("0.0.0.0");
  });

  it("keeps the headers deadline within the request deadline", () => {
    expect(loadConfig(base)).toMatchObject({ HEADERS_TIMEOUT_MS: 15_000, REQUEST_TIMEOUT_MS: 30_000 });
    expect(problemsOf({ HEADERS_TIMEOUT_MS: "40000" })).toEqual([
      'HEADERS_TIMEOUT_MS: must not be greater than REQUEST_TIMEOUT_MS (got "40000")',
    ]);
  });

  it("requires the provider's keys with CRYPTO_PROVIDER=nowpayments", () => {
    const problems = problemsOf({ CRYPTO_PROVIDER: "nowpayments" });
    expect(problems.map((problem) => problem.split(":")[0]).sort()).toEqual([
      "NOWPAYMENTS_API_KEY",
      "NOWPAYMENTS_IPN_SECRET",
    ]);
  });

  it("generates JWT_SECRET into DATA_DIR with mode 0600 and reuses it", () => {
    const dataDir = path.join(scratch, "secret");
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, "jwt-secret");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toBe(first.JWT_SECRET);
    expect(first.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dataDir }).JWT_SECRET).toBe(first.JWT_SECRET);
  });
});

// Each case starts a real process, which takes several seconds on a busy machine.
describe("starting the server with a wrong value", { timeout: 60_000 }, () => {
  const root = fileURLToPath(new URL("../../..", import.meta.url));
  const startServer = (env: Record<string, string>) =>
    spawnSync(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "apps/launcher/src/main.ts")], {
      env: { PATH: process.env.PATH, ...env },
      encoding: "utf8",
      timeout: 30_000,
    });

  it("exits non-zero with a message naming the variable", () => {
    const result = startServer({ PORT: "not-a-port", DATA_DIR: path.join(scratch, "spawn") });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("PORT: ");
    expect(result.stderr).toContain("not-a-port");
  });

  it("stops on a wrong gateway variable before opening the database", () => {
    const dataDir = path.join(scratch, "spawn-gateway");
    const result = startServer({
      GATEWAY_MAX_CONNECTIONS: "0",
      DATA_DIR: dataDir,
      JWT_SECRET: base.JWT_SECRET,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("GATEWAY_MAX_CONNECTIONS: must be greater than 0");
    expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
  });
});
