import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const mainScript = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "bytetoll-gateway-main-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("starting the gateway alone with a wrong value", { timeout: 60_000 }, () => {
  it("exits non-zero naming the variable, before opening the database", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", mainScript], {
      env: { PATH: process.env.PATH, DATA_DIR: join(dataDir, "data"), GATEWAY_HTTP_PORT: "http" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('GATEWAY_HTTP_PORT: must be a port number (got \\"http\\")');
    expect(existsSync(join(dataDir, "data"))).toBe(false);
  });
});
