import { spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import net from "node:net";
import tls from "node:tls";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noDelayForAccepted } from "../src/front/listeners.ts";
import type { Gateway } from "../src/gateway.ts";
import { startGateway, testCertificate } from "./support/harness.ts";
import { waitFor } from "./support/raw-client.ts";

/** TCP_NODELAY of a socket as the kernel has it, read with getsockopt by a process that is handed
 * the socket's descriptor (Node cannot read the option back). */
function noDelayOf(socket: net.Socket | number): Promise<number> {
  const reader = spawn(
    "/usr/bin/python3",
    [
      "-c",
      "import socket\nprint(socket.socket(fileno=3).getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))",
    ],
    { stdio: ["ignore", "pipe", "inherit", socket] },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    reader.stdout?.on("data", (data: Buffer) => {
      out += data.toString();
    });
    reader.once("error", reject);
    reader.once("close", (code) =>
      code === 0 ? resolve(Number(out.trim())) : reject(new Error(`getsockopt failed: ${code}`)),
    );
  });
}

/** A server on loopback whose accepted sockets are handed to `accepted` (`tcp`: for a TLS server,
 * its TCP sockets as they are accepted, before any TLS). */
async function acceptedSocket(server: net.Server, noDelay: boolean): Promise<[net.Socket, net.Socket]> {
  const accepted = new Promise<net.Socket>((resolve) => server.once("connection", resolve));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  if (noDelay) expect(noDelayForAccepted(server)).toBe(process.platform === "linux");
  const client = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
  client.on("error", () => {});
  return [await accepted, client];
}

/** The inode of the loopback TCP connection from `remotePort` to `localPort` (hex columns of
 * /proc/net/tcp: local address, remote address, …, inode). */
function connectionInode(localPort: number, remotePort: number): string | undefined {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const columns = line.trim().split(/\s+/);
      if (columns[1]?.endsWith(`:${hex(localPort)}`) && columns[2]?.endsWith(`:${hex(remotePort)}`))
        return columns[9];
    }
  }
  return undefined;
}

/** The gateway's own descriptor for the client connection `client` (a Node socket's or the
 * native front door's alike), found through the kernel's table of connections. */
async function gatewaySide(client: net.Socket, port: number): Promise<number> {
  await new Promise((resolve) => client.once("connect", resolve));
  let found: number | undefined;
  await waitFor(() => {
    const inode = connectionInode(port, client.localPort as number);
    if (!inode) return false;
    for (const fd of readdirSync("/proc/self/fd")) {
      let link = "";
      try {
        link = readlinkSync(`/proc/self/fd/${fd}`);
      } catch {}
      if (link === `socket:[${inode}]`) found = Number(fd);
    }
    return found !== undefined;
  }, "the gateway to accept the connection");
  return found as number;
}

describe.skipIf(process.platform !== "linux")("TCP_NODELAY from the listening socket", () => {
  it("reaches every socket the listener accepts, which is why they need no setsockopt of their own", async () => {
    const plain = net.createServer();
    const [plainSide, plainClient] = await acceptedSocket(plain, false);
    const set = net.createServer();
    const [setSide, setClient] = await acceptedSocket(set, true);
    const secure = tls.createServer(await testCertificate());
    const [secureSide, secureClient] = await acceptedSocket(secure, true);
    try {
      // Without it an accepted socket has Nagle on: the read-back tells them apart.
      expect(await noDelayOf(plainSide)).toBe(0);
      expect(await noDelayOf(setSide)).toBe(1);
      expect(await noDelayOf(secureSide)).toBe(1);
    } finally {
      for (const socket of [plainSide, plainClient, setSide, setClient, secureSide, secureClient])
        socket.destroy();
      for (const server of [plain, set, secure]) server.close();
    }
  });

  describe("on the gateway's listeners", () => {
    let database: TestDatabase;
    let gateway: Gateway;
    beforeAll(async () => {
      database = await createTestDatabase();
      gateway = await startGateway(database);
    });
    afterAll(async () => {
      await gateway.close();
      await database.close();
    });

    it("a client connection on 8080, 8443 and SOCKS5 has Nagle off from its accept", async () => {
      for (const port of [gateway.httpPort, gateway.httpsPort, gateway.socksPort as number]) {
        const client = net.connect(port, "127.0.0.1");
        client.on("error", () => {});
        try {
          expect(await noDelayOf(await gatewaySide(client, port))).toBe(1);
        } finally {
          client.destroy();
        }
      }
    });
  });
});
