import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@bytetoll/gateway/testing";
import { describe, expect, it, vi } from "vitest";
import { spawnScript, startServerProcess } from "./helpers/server-process.ts";

const faultProbe = fileURLToPath(new URL("./helpers/fault-probe.mjs", import.meta.url));

// The processes below get only the variables written here, so they always run on the embedded
// database: the PostgreSQL + Redis run of the suite would repeat this file to the letter.
const samePerDatabase = process.env.DATABASE_URL !== undefined;

describe.skipIf(samePerDatabase)("process-level safety nets", () => {
  it("logs a rejection nobody handled, with its stack, and keeps serving", async () => {
    const server = await startServerProcess({ FAULT_PROBE: "rejection" }, { preload: faultProbe });
    try {
      server.child.kill("SIGUSR2");
      // The log line comes after the rejection was handled by the safety net; the checks below it
      // show that the process kept serving after that.
      await expect
        .poll(() => server.output(), { timeout: 10_000, interval: 20 })
        .toContain("probe: a rejection nobody handles");
      expect(server.output()).toContain("unhandled promise rejection");
      expect(server.output()).toMatch(/fault-probe\.mjs:\d+/); // the stack
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("logs an uncaught exception, shuts down and exits with status 1", async () => {
    const server = await startServerProcess({ FAULT_PROBE: "exception" }, { preload: faultProbe });
    server.child.kill("SIGUSR2");
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain("uncaught exception: shutting down");
    expect(server.output()).toContain("probe: an exception nobody catches");
  }, 60_000);
});

describe.skipIf(samePerDatabase)("the standalone gateway's safety net", () => {
  it("logs a rejection nobody handled and keeps proxying", async () => {
    const _root = fileURLToPath(new URL("../../..", import.meta.url));
    const dataDir = mkdtempSync(path.join(tmpdir(), "bytetoll-gateway-"));
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    const { child, output, exited } = spawnScript(
      "apps/gateway/src/main.ts",
      {
        DATA_DIR: dataDir,
        GATEWAY_BIND: "127.0.0.1",
        GATEWAY_HTTP_PORT: String(httpPort),
        GATEWAY_SOCKS_PORT: "0",
        GATEWAY_HTTPS_PORT: String(httpsPort),
        GATEWAY_METRICS_PORT: "off",
        FAULT_PROBE: "rejection",
      },
      { preload: faultProbe },
    );
    try {
      // waitUntil retries while the check answers false and stops at once when it throws (an exit).
      await vi.waitUntil(
        async () => {
          if (child.exitCode !== null) throw new Error(`gateway did not start:\n${output()}`);
          return reachable("127.0.0.1", httpPort);
        },
        { timeout: 60_000, interval: 200 },
      );
      child.kill("SIGUSR2");
      await expect
        .poll(output, { timeout: 10_000, interval: 20 })
        .toContain("probe: a rejection nobody handles");
      expect(output()).toContain("unhandled promise rejection");
      expect(await reachable("127.0.0.1", httpPort)).toBe(true);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

/** An address of this machine other than loopback, if it has one. */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && !address.internal && address.family === "IPv4")?.address;

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe.skipIf(samePerDatabase)("where development mode listens", () => {
  it.skipIf(!outsideAddress)(
    "binds the API and the embedded gateway to loopback unless HOST is set",
    async () => {
      const [httpPort, httpsPort] = [await freePort(), await freePort()];
      const server = await startServerProcess({
        GATEWAY_DISABLED: "false",
        GATEWAY_HTTP_PORT: String(httpPort),
        GATEWAY_SOCKS_PORT: "0",
        GATEWAY_HTTPS_PORT: String(httpsPort),
      });
      try {
        for (const port of [server.port, httpPort, httpsPort]) {
          // The gateway starts listening just after the API answers.
          await expect
            .poll(() => reachable("127.0.0.1", port), { timeout: 10_000, interval: 100 })
            .toBe(true);
          expect(await reachable(outsideAddress ?? "", port)).toBe(false);
        }
        expect(server.output()).not.toContain("WARNING");
      } finally {
        await server.stop();
      }
    },
    60_000,
  );

  it("warns loudly when HOST opens development mode to other machines", async () => {
    const server = await startServerProcess({ HOST: "0.0.0.0" });
    try {
      expect(server.output()).toContain("WARNING: development mode is listening on 0.0.0.0");
      expect(server.output()).toContain("/dev/outbox");
      if (outsideAddress) expect(await reachable(outsideAddress, server.port)).toBe(true);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
