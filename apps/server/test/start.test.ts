import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createThrowawayPostgres, type TestDatabase } from "@bytetoll/db/testing";
import { freePort } from "@bytetoll/gateway/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), "bytetoll-start-"));
let postgres: TestDatabase | undefined;

beforeAll(async () => {
  // As `npm test` and `npm run build` leave it: these tests are about starting, not compiling.
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build-server.mjs")], {
    stdio: "inherit",
  });
  expect(build.status).toBe(0);
  if (process.env.DATABASE_URL)
    postgres = await createThrowawayPostgres(process.env.DATABASE_URL, "bytetoll_start", 2);
}, 60_000);
afterAll(async () => {
  await postgres?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  stop: () => Promise<number | null>;
}

/** `npm start` (scripts/start.mjs) as an operator runs it, its stdout a pipe as under a supervisor. */
async function npmStart(env: Record<string, string>, viaNpm = false): Promise<Started> {
  const port = await freePort();
  const [command, args] = viaNpm
    ? ["npm", ["start", "--silent"]]
    : [process.execPath, [path.join(root, "scripts/start.mjs")]];
  const child = spawn(command, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATA_DIR: dataDir,
      GATEWAY_DISABLED: "true",
      ...(postgres?.url ? { DATABASE_URL: postgres.url } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", () => {
      if (stdout.includes(`ByteToll is running at http://localhost:${port}`)) resolve();
    });
    void exited.then(() => reject(new Error(`npm start exited early:\n${stdout}${stderr}`)));
  });
  return {
    child,
    port,
    output: () => stdout,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Every process below `pid`, read from /proc. */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(" ")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The command line of the server process `npm start` runs (its one child). */
function serverCommandLine(wrapper: ChildProcess): string {
  const children = readFileSync(`/proc/${wrapper.pid}/task/${wrapper.pid}/children`, "utf8").trim();
  const [serverPid] = children.split(" ");
  return readFileSync(`/proc/${serverPid}/cmdline`, "utf8").split("\0").join(" ");
}

describe("npm start", () => {
  it("runs the compiled server, without the TypeScript loader, and it answers", async () => {
    const started = await npmStart({});
    try {
      const command = serverCommandLine(started.child);
      expect(command).toContain("apps/server/dist/server.js");
      expect(command).not.toContain("tsx");
      expect((await fetch(`http://127.0.0.1:${started.port}/readyz`)).status).toBe(200);
    } finally {
      expect(await started.stop()).toBe(0);
    }
  }, 120_000);

  it("writes JSON lines when stdout is not a terminal, the start announcement included", async () => {
    const started = await npmStart({});
    try {
      await fetch(`http://127.0.0.1:${started.port}/readyz`);
    } finally {
      await started.stop();
    }
    const lines = started.output().split("\n").filter(Boolean);
    // A build npm start runs first may print its own lines; what the server says is JSON.
    const plain = lines.filter((line) => !line.startsWith("{"));
    expect(plain.filter((line) => /ByteToll|gateway|login link|listening/i.test(line))).toEqual([]);
    const entries = lines
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      entries.find((entry) => entry.msg === `ByteToll is running at http://localhost:${started.port}`),
    ).toMatchObject({
      appUrl: `http://localhost:${started.port}`,
      docsUrl: `http://localhost:${started.port}/docs`,
    });
    expect(entries.some((entry) => (entry.req as { url?: string } | undefined)?.url === "/readyz")).toBe(
      true,
    );
  }, 120_000);

  it("writes one readable line per event and a banner with the URLs when LOG_FORMAT=pretty", async () => {
    const [proxyPort, tlsProxyPort, socksPort] = [await freePort(), await freePort(), await freePort()];
    const started = await npmStart({
      LOG_FORMAT: "pretty",
      GATEWAY_DISABLED: "false",
      GATEWAY_HTTP_PORT: String(proxyPort),
      GATEWAY_SOCKS_PORT: String(socksPort),
      GATEWAY_HTTPS_PORT: String(tlsProxyPort),
    });
    try {
      await fetch(`http://127.0.0.1:${started.port}/readyz`);
      // The request's log line comes after its answer, and the gateway's once it listens.
      const logged = { timeout: 10_000, interval: 20 };
      await expect.poll(() => started.output(), logged).toMatch(/INFO {2}request completed #\w{8} → 200/);
      await expect.poll(() => started.output(), logged).toMatch(/INFO {2}gateway listening httpPort=/);
    } finally {
      await started.stop();
    }
    const output = started.output();
    expect(output).toContain(`API docs     http://localhost:${started.port}/docs`);
    expect(output).toContain(
      `Proxy        localhost:${proxyPort} (HTTP), localhost:${tlsProxyPort} (TLS), localhost:${socksPort} (SOCKS5)\n`,
    );
    expect(output).toMatch(/^\d\d:\d\d:\d\d INFO {2}gateway listening httpPort=\d+/m);
    expect(output).toMatch(/^\d\d:\d\d:\d\d INFO {2}incoming request #\w{8} GET \/readyz$/m);
    expect(output).toMatch(/^\d\d:\d\d:\d\d INFO {2}request completed #\w{8} → 200 [\d.]+ ms$/m);
    expect(output).not.toMatch(/^\{/m);
  }, 120_000);

  for (const [signal, how] of [
    ["SIGTERM", "npm"],
    ["SIGINT", "npm"],
    ["SIGTERM", "node"],
  ] as const) {
    it(`stops every process it started, the server cleanly, on ${signal} to the top process (${how === "npm" ? "npm start" : "node scripts/start.mjs"})`, async () => {
      const started = await npmStart(
        {
          GATEWAY_DISABLED: "false",
          GATEWAY_HTTP_PORT: String(await freePort()),
          GATEWAY_SOCKS_PORT: String(await freePort()),
          GATEWAY_HTTPS_PORT: String(await freePort()),
        },
        how === "npm",
      );
      const below = descendants(started.child.pid as number);
      expect(below.length).toBeGreaterThan(0);
      const exited = new Promise<void>((resolve) => started.child.once("exit", () => resolve()));
      started.child.kill(signal);
      await exited;
      // A supervisor (systemd, a container runtime) signals only the process it started: what that
      // one started must not live on, holding the ports and the embedded database.
      try {
        await expect.poll(() => below.filter(isRunning), { timeout: 30_000 }).toEqual([]);
      } finally {
        for (const pid of below.filter(isRunning)) process.kill(pid, "SIGKILL");
      }
      expect(started.output()).toContain('"msg":"shutting down"');
      await expect(fetch(`http://127.0.0.1:${started.port}/readyz`)).rejects.toThrow();
    }, 120_000);
  }

  it("stops with a message naming LOG_FORMAT when it is neither json nor pretty", () => {
    const result = spawnSync(process.execPath, [path.join(root, "apps/server/dist/server.js")], {
      env: { PATH: process.env.PATH, LOG_FORMAT: "fancy", DATA_DIR: dataDir },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('LOG_FORMAT: must be json or pretty (got "fancy")');
  });
});
