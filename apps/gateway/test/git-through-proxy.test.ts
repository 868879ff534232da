import { execFile } from "node:child_process";
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, normalize } from "node:path";
import { promisify } from "node:util";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { eventually, type SeededUser, seedUser, startGateway, usageOf } from "./support/harness.ts";

const run = promisify(execFile);
const git = (args: string[], cwd?: string, env: Record<string, string> = {}) =>
  run("git", args, {
    cwd,
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", HOME: scratch, ...env },
  });

let scratch: string;
let database: TestDatabase;
let gateway: Gateway;
let site: http.Server;
let closedBytes = 0;
const sockets = new Set<Socket>();
/** Every byte the site's sockets moved, open or closed: what the gateway must bill. */
const siteBytes = () => closedBytes + [...sockets].reduce((sum, s) => sum + s.bytesRead + s.bytesWritten, 0);

/** A repository served over git's "dumb" HTTP protocol: plain files, as any static site. */
async function serveRepository(): Promise<void> {
  const work = join(scratch, "work");
  await git(["init", "-q", "-b", "main", work]);
  for (let i = 0; i < 20; i++) {
    writeFileSync(join(work, `file-${i}.txt`), `line ${i}\n`.repeat(2_000));
  }
  await git(["add", "."], work);
  await git(["-c", "user.email=t@example.com", "-c", "user.name=T", "commit", "-qm", "first"], work);
  await git(["clone", "-q", "--bare", work, join(scratch, "repo.git")]);
  await git(["update-server-info"], join(scratch, "repo.git"));
  site = http.createServer((req, res) => {
    const path = normalize(join(scratch, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)));
    if (!path.startsWith(join(scratch, "repo.git"))) return void res.writeHead(404).end();
    try {
      res.writeHead(200, { "Content-Length": statSync(path).size });
      createReadStream(path).pipe(res);
    } catch {
      res.writeHead(404).end();
    }
  });
  site.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      closedBytes += socket.bytesRead + socket.bytesWritten;
    });
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "git-through-proxy-"));
  database = await createTestDatabase();
  gateway = await startGateway(database);
  await serveRepository();
});
afterAll(async () => {
  await gateway.close();
  await new Promise((resolve) => site.close(resolve));
  await database.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function cloneThrough(proxy: string, into: string): Promise<string> {
  const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/repo.git`;
  await git(["-c", `http.proxy=${proxy}`, "clone", "-q", url, join(scratch, into)]);
  return (await git(["log", "--format=%s", "-1"], join(scratch, into))).stdout.trim();
}

const credentials = (user: SeededUser) => `${user.username}:${encodeURIComponent(user.password)}`;

describe("git through the gateway", () => {
  it("clones over SOCKS5 (socks5h://) and over the HTTP proxy, billed to the byte", async () => {
    const user = await seedUser(database, 1_000_000_000);
    expect(
      await cloneThrough(`socks5h://${credentials(user)}@127.0.0.1:${gateway.socksPort}`, "via-socks"),
    ).toBe("first");
    expect(await cloneThrough(`http://${credentials(user)}@127.0.0.1:${gateway.httpPort}`, "via-http")).toBe(
      "first",
    );
    let billed = 0;
    await eventually(async () => {
      await gateway.flush();
      billed = (await usageOf(database, user.userId)).reduce((sum, row) => sum + row.bytes, 0);
      return billed === siteBytes();
    }, "the clones to be billed");
    expect(billed).toBe(siteBytes());
    expect(billed).toBeGreaterThan(10_000);
  });
});
