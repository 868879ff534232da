import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@bytetoll/gateway/testing";
import { afterAll, describe, expect, it } from "vitest";
import { runAdmin, type ServerProcess, spawnScript, startServerProcess } from "../helpers/server-process.ts";

// The embedded database (no DATABASE_URL) in one DATA_DIR shared by the processes below.
const scratch = mkdtempSync(path.join(tmpdir(), "bytetoll-one-process-"));
const running: ServerProcess[] = [];
const refused: ChildProcess[] = [];
afterAll(async () => {
  // A second server that was not refused (the bug this file guards against) must not outlive it.
  for (const child of refused) if (child.exitCode === null) child.kill("SIGKILL");
  await Promise.all(running.map((server) => server.stop()));
  rmSync(scratch, { recursive: true, force: true });
});

async function serverOn(dataDir: string): Promise<ServerProcess> {
  const server = await startServerProcess({ DATA_DIR: dataDir });
  running.push(server);
  return server;
}

const healthy = (server: ServerProcess) =>
  fetch(`${server.url}/healthz`).then(
    (response) => response.ok,
    () => false,
  );

// The processes below get only the variables written here, so they always run on the embedded
// database: the PostgreSQL + Redis run of the suite would repeat this file to the letter.
const samePerDatabase = process.env.DATABASE_URL !== undefined;

describe.skipIf(samePerDatabase)("one server process per embedded DATA_DIR", () => {
  it("refuses a second `npm start` on the same DATA_DIR in one line naming it and the first's pid; the first keeps serving", async () => {
    const dataDir = path.join(scratch, "two-servers");
    const first = await serverOn(dataDir);
    const second = spawnScript("apps/launcher/src/main.ts", {
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      GATEWAY_DISABLED: "true",
    });
    refused.push(second.child);
    expect(await second.exited).toBe(1);
    expect(second.output().trim().split("\n")).toEqual([
      expect.stringContaining(`DATA_DIR ${dataDir} is in use by process ${first.child.pid}`),
    ]);
    expect(await healthy(first)).toBe(true);
    expect(first.child.exitCode).toBeNull();
  }, 120_000);

  it("starts after a server on the same DATA_DIR was killed with SIGKILL", async () => {
    const dataDir = path.join(scratch, "killed");
    const killed = await serverOn(dataDir);
    killed.child.kill("SIGKILL");
    await killed.exited;
    const next = await serverOn(dataDir);
    expect(await healthy(next)).toBe(true);
  }, 120_000);

  it("`npm run admin` refuses while the server holds DATA_DIR, saying to stop it or use the API, and works once it stopped", async () => {
    const dataDir = path.join(scratch, "admin");
    const server = await serverOn(dataDir);
    const refused = await runAdmin(["accounts"], { DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`DATA_DIR ${dataDir} is in use by process ${server.child.pid}`);
    expect(refused.output).toContain("Stop the server first");
    expect(refused.output).toContain("admin API");
    expect(await healthy(server)).toBe(true);

    expect(await server.stop()).toBe(0);
    const listed = await runAdmin(["accounts"], { DATA_DIR: dataDir });
    expect(listed).toMatchObject({ code: 0 });
    expect(JSON.parse(listed.output)).toMatchObject({ total: 0, data: [] });
  }, 120_000);
});
