import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { lockDataDir } from "@bytetoll/db";
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

describe("starting the gateway alone on an embedded database another process holds", {
  timeout: 60_000,
}, () => {
  it("exits non-zero in one line naming the directory and the holder, without a stack trace", () => {
    const held = join(dataDir, "held");
    const lock = lockDataDir(held);
    try {
      const result = spawnSync(process.execPath, ["--import", "tsx", mainScript], {
        env: { PATH: process.env.PATH, DATA_DIR: held, GATEWAY_HTTP_PORT: "0", GATEWAY_HTTPS_PORT: "0" },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toContain(`${held} is in use by process ${process.pid}`);
      expect(result.stdout).not.toContain('"stack"');
    } finally {
      lock.release();
    }
  });
});
