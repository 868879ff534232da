import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), "bytetoll-server-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the server entry point", () => {
  it("starts on the embedded database, serves, prints its URL and stops cleanly on SIGTERM", async () => {
    const port = randomInt(20_000, 40_000);
    const child = spawn(
      path.join(root, "node_modules/.bin/tsx"),
      [path.join(root, "apps/server/src/server.ts")],
      {
        // The embedded gateway is exercised by its own tests; here it would only contend for ports.
        env: {
          PATH: process.env.PATH,
          PORT: String(port),
          DATA_DIR: dataDir,
          LOG_LEVEL: "warn",
          GATEWAY_DISABLED: "true",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

    await new Promise<void>((resolve, reject) => {
      const onData = () => {
        // The dev-outbox hint is the last line printed once listening.
        if (output.includes("/dev/outbox")) resolve();
      };
      child.stdout.on("data", onData);
      void exited.then(() => reject(new Error(`server exited early:\n${output}`)));
    });
    expect(output).toContain(`ByteToll is running at http://localhost:${port}`);
    expect(output).toContain(`http://localhost:${port}/dev/outbox`);

    const health = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(health.status).toBe(200);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);
});
