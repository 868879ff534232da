import { spawn } from "node:child_process";
import { hashSecret, randomSecret } from "@bytetoll/db";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { type SeededUser, seedUser, startGatewayPair } from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

/** What docs/product.md promises: a sub-user's changed credential closes its tunnels within it. */
const REVOCATION_MS = 1_000;

let database: TestDatabase;
let first: Gateway;
let second: Gateway;
let origin: TestOrigin;
let owner: SeededUser;

beforeAll(async () => {
  database = await createTestDatabase();
  [first, second] = await startGatewayPair(database);
  origin = await startOrigin();
  owner = await seedUser(database, 1e12);
});
afterAll(async () => {
  await first.close();
  await second.close();
  await origin.close();
  await database.close();
});

async function seedSubuser(): Promise<SeededUser & { subuserId: string }> {
  const username = `su${randomSecret(8)
    .replace(/[^A-Za-z0-9]/g, "x")
    .toLowerCase()}`;
  const password = randomSecret(12);
  const [row] = await database.query<{ id: string }>(
    `INSERT INTO subusers (user_id, label, username, password_hash, password_enc, limit_bytes, limit_period, period_start)
     VALUES ($1, $2, $3, $4, 'not-needed', NULL, 'total', subuser_period_start('total')) RETURNING id`,
    [owner.userId, `label ${username}`, username, hashSecret(password)],
  );
  return { userId: owner.userId, username, password, subuserId: row?.id as string };
}

/**
 * A slow downloader through a CONNECT tunnel (python's own sockets, reading 64 KiB every 20 ms,
 * about 3 MB/s): what a person sees when the tunnel is cut. A line on stdin marks the change; at
 * the end it prints the milliseconds from the mark to the end it saw, the bytes it read after the
 * mark, and how the tunnel ended ("reset" or "eof").
 */
const SLOW_CLIENT = `
import base64, select, socket, sys, time
port, authority, auth = int(sys.argv[1]), sys.argv[2], sys.argv[3]
sock = socket.create_connection(("127.0.0.1", port))
sock.sendall(f"CONNECT {authority} HTTP/1.1\\r\\nHost: {authority}\\r\\nProxy-Authorization: Basic {base64.b64encode(auth.encode()).decode()}\\r\\n\\r\\n".encode())
head = b""
while b"\\r\\n\\r\\n" not in head:
    byte = sock.recv(1)
    if not byte:
        sys.exit(f"the gateway closed during the answer to CONNECT: {head!r}")
    head += byte
if not head.startswith(b"HTTP/1.1 200"):
    sys.exit(f"CONNECT refused: {head!r}")
sock.sendall(f"GET /bytes/10000000000 HTTP/1.1\\r\\nHost: {authority}\\r\\n\\r\\n".encode())
received, marked_at, after = 0, None, 0
while True:
    if marked_at is None and select.select([sys.stdin], [], [], 0)[0]:
        sys.stdin.readline()
        marked_at = time.monotonic()
    try:
        data = sock.recv(65536)
    except ConnectionResetError:
        ending = "reset"
        break
    if not data:
        ending = "eof"
        break
    received += len(data)
    if marked_at is not None:
        after += len(data)
    if received >= 1024 * 1024 and received - len(data) < 1024 * 1024:
        print("downloading", flush=True)
    # Paces the reader (about 3 MB/s) so the download is still running when the change comes; no
    # assertion waits on it: the test waits for the lines this client prints.
    time.sleep(0.02)
print(round((time.monotonic() - marked_at) * 1000), after, ending, flush=True)
`;

/** Starts SLOW_CLIENT through `gateway`: `downloading` resolves once it reads, `mark` marks the
 * change, `ended` says how its download ended after the mark. */
function slowDownload(gateway: Gateway, user: SeededUser) {
  const child = spawn("/usr/bin/python3", [
    "-c",
    SLOW_CLIENT,
    String(gateway.httpPort),
    `127.0.0.1:${origin.port}`,
    `${user.username}:${user.password}`,
  ]);
  let output = "";
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const downloading = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("downloading")) resolve();
    });
    // A tunnel refused or cut before the download got going says so instead of timing out.
    child.once("close", (code) =>
      reject(
        new Error(
          `the download through ${gateway.httpPort} ended before it started (exit ${code}): ${output}${errors}`,
        ),
      ),
    );
  });
  const ended = new Promise<{ ms: number; megabytes: number; ending: string }>((resolve) =>
    child.once("close", () => {
      const [ms = "", bytes = "", ending = ""] = (output.trim().split("\n").at(-1) ?? "").split(" ");
      resolve({ ms: Number(ms), megabytes: Number(bytes) / 1e6, ending });
    }),
  );
  return { downloading, mark: () => child.stdin.write("mark\n"), ended, stop: () => child.kill() };
}

/** Fails (and does not wait out the test's timeout) when a download is not cut within `ms`. */
function cutWithin<T>(ended: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} was still running ${ms} ms after the change`)), ms);
  });
  return Promise.race([ended, late]).finally(() => clearTimeout(timer));
}

const changes = {
  disabled: (id: string) => database.query("UPDATE subusers SET enabled = false WHERE id = $1", [id]),
  deleted: (id: string) => database.query("DELETE FROM subusers WHERE id = $1", [id]),
  "given a new password": (id: string) =>
    database.query("UPDATE subusers SET password_hash = $1 WHERE id = $2", [
      hashSecret(randomSecret(12)),
      id,
    ]),
};

describe("a sub-user whose credential changes", () => {
  for (const [what, change] of Object.entries(changes)) {
    it(`cuts a slow download on every instance within a second when ${what}`, async () => {
      const subuser = await seedSubuser();
      const downloads = [first, second].map((gateway) => slowDownload(gateway, subuser));
      try {
        await Promise.all(downloads.map((download) => download.downloading));
        for (const download of downloads) download.mark();
        await change(subuser.subuserId);
        const ends = await Promise.all(
          downloads.map((download, i) =>
            cutWithin(download.ended, 5_000, `the download through gateway ${i + 1}`),
          ),
        );
        const shown = ends.map((end) => `${end.ms} ms, ${end.megabytes.toFixed(1)} MB, ${end.ending}`);
        console.info(`sub-user ${what}: the downloads ended ${shown.join("; ")} after the change`);
        for (const end of ends) expect(end.ms).toBeLessThan(REVOCATION_MS);
      } finally {
        // A download that was not cut would go on reading for the rest of the run.
        for (const download of downloads) download.stop();
      }
    });
  }
});
