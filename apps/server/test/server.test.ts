import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@bytetoll/gateway/testing";
import { afterAll, describe, expect, it } from "vitest";
import { spawnScript } from "./helpers/server-process.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "bytetoll-server-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the server entry point", () => {
  it("starts on the embedded database, serves, prints its URL and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    // The embedded gateway is exercised by its own tests; here it would only contend for ports.
    const { child, output, exited } = spawnScript("apps/launcher/src/main.ts", {
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      GATEWAY_DISABLED: "true",
    });

    await new Promise<void>((resolve, reject) => {
      const onData = () => {
        // The dev-outbox hint is the last line printed once listening.
        if (output().includes("/dev/outbox")) resolve();
      };
      child.stdout?.on("data", onData);
      void exited.then(() => reject(new Error(`server exited early:\n${output()}`)));
    });
    expect(output()).toContain(`ByteToll is running at http://localhost:${port}`);
    expect(output()).toContain(`http://localhost:${port}/dev/outbox`);

    const health = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(health.status).toBe(200);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);
});
