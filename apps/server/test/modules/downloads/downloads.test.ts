import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { ensureIntegrationsBuilt } from "./built-packages.ts";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../../../../..", import.meta.url));
let t: TestApp;

beforeAll(async () => {
  await ensureIntegrationsBuilt();
  t = await createTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe("GET /downloads/{file}", () => {
  it("serves the SDK and MCP tarballs as npm packages of built JavaScript with declarations", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bytetoll-downloads-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    for (const [file, name] of [
      ["bytetoll-sdk.tgz", "@bytetoll/sdk"],
      ["bytetoll-mcp.tgz", "@bytetoll/mcp"],
    ] as const) {
      const response = await t.app.inject({ method: "GET", url: `/downloads/${file}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("application/gzip");
      expect(response.headers["content-disposition"]).toBe(`attachment; filename="${file}"`);
      writeFileSync(join(dir, file), response.rawPayload);
      const { stdout } = await run("tar", ["-xzOf", file, "package/package.json"], { cwd: dir });
      const manifest = JSON.parse(stdout);
      expect(manifest.name).toBe(name);
      // Everything is bundled: installing needs no registry.
      expect(manifest.dependencies).toBeUndefined();
    }
    const { stdout: sdkFiles } = await run("tar", ["-tzf", "bytetoll-sdk.tgz"], { cwd: dir });
    expect(sdkFiles.split("\n")).toEqual(
      expect.arrayContaining(["package/dist/index.js", "package/dist/index.d.ts", "package/README.md"]),
    );
    const { stdout: mcpFiles } = await run("tar", ["-tzf", "bytetoll-mcp.tgz"], { cwd: dir });
    expect(mcpFiles.split("\n")).toContain("package/dist/main.js");
  });

  it("gives TypeScript users the SDK's types without zod or the contracts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bytetoll-sdk-types-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const tarball = (await t.app.inject({ method: "GET", url: "/downloads/bytetoll-sdk.tgz" })).rawPayload;
    writeFileSync(join(dir, "bytetoll-sdk.tgz"), tarball);
    writeFileSync(join(dir, "package.json"), '{ "private": true, "type": "module" }');
    await run("npm", ["install", "--no-audit", "--no-fund", "./bytetoll-sdk.tgz"], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir, npm_config_registry: "http://127.0.0.1:9/" },
    });
    writeFileSync(
      join(dir, "use.ts"),
      [
        'import { ByteTollError, createClient, type Order } from "@bytetoll/sdk";',
        'const sdk = createClient({ baseUrl: "https://bytetoll.example.com", apiToken: "bt_x" });',
        'const [day] = await sdk.usage({ group_by: "day", days: 7 });',
        "const date: string | undefined = day?.date;",
        'const order: Order = await sdk.transactions.createCryptoOrder({ amount: 5, network_type: "base" });',
        "// @ts-expect-error: 3 days is not a period the API offers",
        'await sdk.usage({ group_by: "day", days: 3 });',
        "console.log(date, order.pay_address, ByteTollError);",
      ].join("\n"),
    );
    const compilerOptions = {
      strict: true,
      module: "nodenext",
      target: "es2022",
      noEmit: true,
      types: [],
      lib: ["es2022", "dom"],
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["use.ts"] }));
    await run(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", dir]);
  }, 60_000);

  it("serves the PHP SDK as a zip with composer.json, autoload.php and the sources", async () => {
    const response = await t.app.inject({ method: "GET", url: "/downloads/bytetoll-php.zip" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/zip");
    const dir = mkdtempSync(join(tmpdir(), "bytetoll-php-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, "php.zip"), response.rawPayload);
    await run("unzip", ["-q", "php.zip"], { cwd: dir });
    const composer = JSON.parse(readFileSync(join(dir, "bytetoll-php/composer.json"), "utf8"));
    expect(composer.autoload["psr-4"]).toEqual({ "ByteToll\\": "src/" });
    expect(readFileSync(join(dir, "bytetoll-php/src/Client.php"), "utf8")).toContain("final class Client");
  });

  it("answers a JSON 404 for anything else, without reading outside the downloads", async () => {
    for (const url of ["/downloads/server.js", "/downloads/..%2F..%2Fpackage.json", "/downloads/"]) {
      const response = await t.app.inject({ method: "GET", url, headers: { accept: "application/json" } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ success: false });
    }
  });
});
