import { execFile, spawn } from "node:child_process";
import net from "node:net";
import { promisify } from "node:util";
import { hashSecret, randomSecret } from "@bytetoll/db";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { type SeededUser, seedUser, startGateway } from "./support/harness.ts";
import { openConnections, waitFor } from "./support/raw-client.ts";

/**
 * A tunnel the gateway cuts (balance spent, a sub-user's limit reached, its credential revoked)
 * ends with a TCP reset, on every front-end and with both relays, so the client sees an error
 * instead of a download that merely ended early.
 */

const run = promisify(execFile);
const BALANCE = 2 * 1024 * 1024;
/** What the site announces and would send: far more than any balance here pays for. */
const BODY = 50 * 1024 * 1024;

let database: TestDatabase;
/** A site that answers any request with a 50 MB, length-framed body, sent as fast as read. */
let site: net.Server;
const siteSockets = new Set<net.Socket>();
let siteAuthority: string;

beforeAll(async () => {
  database = await createTestDatabase();
  site = net.createServer((socket) => {
    siteSockets.add(socket);
    socket.once("close", () => siteSockets.delete(socket));
    socket.on("error", () => {});
    socket.once("data", () => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${BODY}\r\n\r\n`);
      const piece = Buffer.alloc(64 * 1024, 97);
      let sent = 0;
      const pump = () => {
        while (sent < BODY && !socket.destroyed) {
          sent += piece.length;
          if (!socket.write(piece)) {
            socket.once("drain", pump);
            return;
          }
        }
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteAuthority = `127.0.0.1:${(site.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of siteSockets) socket.destroy();
  site.close();
  await database.close();
});

/** A sub-user of `owner` with a data limit, as the API creates one. */
async function seedSubuser(owner: SeededUser, limitBytes: number): Promise<SeededUser> {
  const username = `su${randomSecret(8)
    .replace(/[^A-Za-z0-9]/g, "x")
    .toLowerCase()}`;
  const password = randomSecret(12);
  await database.query(
    `INSERT INTO subusers (user_id, label, username, password_hash, password_enc, limit_bytes, limit_period, period_start)
     VALUES ($1, $2, $3, $4, 'not-needed', $5, 'total', subuser_period_start('total'))`,
    [owner.userId, `label ${username}`, username, hashSecret(password), limitBytes],
  );
  return { userId: owner.userId, username, password };
}

/**
 * A CONNECT tunnel (on the HTTP port, or inside TLS on 8443) carrying one GET to the site, read
 * to its end by python's own sockets: a Node client cannot be asked, since libuv reports a reset
 * that follows a partial read as a clean end of stream. Prints how the TCP connection ended:
 * "reset" or "eof" (a FIN, or a TLS error), and the bytes read. With a last
 * argument "hold", it says "holding" once a megabyte came and reads on only after a line on stdin.
 */
const TUNNEL_CLIENT = `
import base64, socket, ssl, sys
port, secure, authority, auth, hold = int(sys.argv[1]), sys.argv[2] == "tls", sys.argv[3], sys.argv[4], sys.argv[5] == "hold"

class Tls:
    """TLS over the raw socket through memory buffers, so the TCP ending shows as it is: a reset
    raises ConnectionResetError, a FIN reads b"" (python's ssl sockets report both as one error)."""
    def __init__(self, sock):
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        self.sock, self.incoming, self.outgoing = sock, ssl.MemoryBIO(), ssl.MemoryBIO()
        self.tls = context.wrap_bio(self.incoming, self.outgoing)
        while True:
            try:
                self.tls.do_handshake()
                break
            except ssl.SSLWantReadError:
                self.flush()
                self.incoming.write(self.sock.recv(65536))
        self.flush()
    def flush(self):
        data = self.outgoing.read()
        if data:
            self.sock.sendall(data)
    def sendall(self, data):
        self.tls.write(data)
        self.flush()
    def recv(self, size):
        while True:
            try:
                return self.tls.read(size)
            except ssl.SSLWantReadError:
                data = self.sock.recv(65536)
                if not data:
                    return b""
                self.incoming.write(data)

sock = socket.create_connection(("127.0.0.1", port))
if secure:
    sock = Tls(sock)
sock.sendall(f"CONNECT {authority} HTTP/1.1\\r\\nHost: {authority}\\r\\nProxy-Authorization: Basic {base64.b64encode(auth.encode()).decode()}\\r\\n\\r\\n".encode())
head = b""
while b"\\r\\n\\r\\n" not in head:
    head += sock.recv(1)
assert head.startswith(b"HTTP/1.1 200"), head
sock.sendall(f"GET /big HTTP/1.1\\r\\nHost: {authority}\\r\\n\\r\\n".encode())
received, held = 0, False
while True:
    try:
        data = sock.recv(65536)
    except ConnectionResetError:
        print("reset", received, flush=True)
        break
    except ssl.SSLError:
        print("eof", received, flush=True)
        break
    if not data:
        print("eof", received, flush=True)
        break
    received += len(data)
    if hold and not held and received >= 1024 * 1024:
        held = True
        print("holding", flush=True)
        sys.stdin.readline()
`;

/** Runs TUNNEL_CLIENT; `whileHeld` runs once it holds (with "hold"). Resolves its last line. */
async function tunnelClient(
  port: number,
  secure: boolean,
  user: SeededUser,
  whileHeld: (() => Promise<void>) | null = null,
): Promise<{ ending: string; received: number }> {
  const child = spawn("/usr/bin/python3", [
    "-c",
    TUNNEL_CLIENT,
    String(port),
    secure ? "tls" : "plain",
    siteAuthority,
    `${user.username}:${user.password}`,
    whileHeld ? "hold" : "no",
  ]);
  let output = "";
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  await new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("holding") && whileHeld) {
        const held = whileHeld;
        whileHeld = null;
        void held().then(() => child.stdin.write("go\n"));
      }
    });
    child.once("close", () => resolve());
  });
  await exited;
  const last = output.trim().split("\n").at(-1) ?? "";
  const [ending = `no ending: ${errors}`, received = "0"] = last.split(" ");
  return { ending, received: Number(received) };
}

/** python `requests` (with PySocks) downloading the site's 50 MB through SOCKS5: what it says. */
async function requestsOverSocks(gateway: Gateway, user: SeededUser): Promise<string> {
  const script = [
    "import sys, requests",
    "try:",
    "    r = requests.get(sys.argv[2], proxies={'http': sys.argv[1]}, timeout=30)",
    "    print('complete' if len(r.content) == int(sys.argv[3]) else f'truncated {len(r.content)}')",
    "except Exception as error:",
    "    print(f'error {type(error).__name__}')",
  ].join("\n");
  const proxy = `socks5://${user.username}:${encodeURIComponent(user.password)}@127.0.0.1:${gateway.socksPort}`;
  const { stdout } = await run(
    "/usr/bin/python3",
    ["-c", script, proxy, `http://${siteAuthority}/big`, String(BODY)],
    { timeout: 60_000 },
  );
  return stdout.trim();
}

describe.each([
  ["the splice addon", "auto"],
  ["JavaScript", "off"],
] as const)("a tunnel the gateway cuts, relayed by %s", (_name, splice) => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startGateway(database, { splice });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it("ends with a reset when the balance runs out (CONNECT)", async () => {
    const user = await seedUser(database, BALANCE);
    const { ending, received } = await tunnelClient(gateway.httpPort, false, user);
    expect(received).toBeLessThan(BODY);
    expect(ending).toBe("reset");
  });

  it("ends with a reset on the TLS port too when the balance runs out (CONNECT inside TLS)", async () => {
    const user = await seedUser(database, BALANCE);
    const { ending, received } = await tunnelClient(gateway.httpsPort, true, user);
    expect(received).toBeLessThan(BODY);
    expect(ending).toBe("reset");
  });

  it("makes python requests fail, not return a short file, when the balance runs out over SOCKS5", async () => {
    const user = await seedUser(database, BALANCE);
    expect(await requestsOverSocks(gateway, user)).toMatch(/^error /);
  });

  it("makes python requests fail when a sub-user's limit is reached over SOCKS5", async () => {
    const owner = await seedUser(database, 1e12);
    const subuser = await seedSubuser(owner, BALANCE);
    expect(await requestsOverSocks(gateway, subuser)).toMatch(/^error /);
  });

  it("ends with a reset when the tunnel's credential is deleted mid-download", async () => {
    const user = await seedUser(database, 1e12);
    // The client stops reading after a megabyte, so the download cannot finish before the cut.
    const { ending, received } = await tunnelClient(gateway.httpPort, false, user, async () => {
      await database.query("DELETE FROM proxy_credentials WHERE username = $1", [user.username]);
      await waitFor(async () => (await openConnections(gateway)) === 0, "the gateway to cut the tunnel");
    });
    expect(received).toBeLessThan(BODY);
    expect(ending).toBe("reset");
  });
});
