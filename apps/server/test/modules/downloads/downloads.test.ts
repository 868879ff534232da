import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { ensureIntegrationsBuilt } from "./built-packages.ts";

const run = promisify(execFile);
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
