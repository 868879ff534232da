import { randomUUID } from "node:crypto";
import dgram from "node:dgram";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Cidr, cidrContains, DENIED, parseCidr, parseIpLiteral } from "@bytetoll/egress";
import { SharedReads } from "../base/shared-reads.ts";

/** How long the outbound address is trusted before the routing table is asked again. */
const OUTBOUND_TTL_MS = 60_000;

const bogons = DENIED.map(([text]) => parseCidr(text) as Cidr);

/** Where the answer is served: a Unix socket (on Linux in the abstract namespace: no file, gone
 * with the process), never a TCP port, so nothing but the gateway's own dial reaches it. */
function socketPath(): string {
  const name = `bytetoll-ipinfo-${randomUUID().slice(0, 8)}`;
  if (process.platform === "linux") return `\0${name}`;
  if (process.platform === "win32") return `\\\\.\\pipe\\${name}`;
  return join(tmpdir(), `${name}.sock`);
}

/** The source address the kernel picks for traffic to `probe`: connecting a UDP socket looks up
 * the route and sends nothing, so this works (and answers) with no network at all. Null when
 * there is no route of that family. */
function sourceAddressTowards(type: "udp4" | "udp6", probe: string): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket(type);
    const done = (address: string | null) => {
      try {
        socket.close();
      } catch {
        // Already closed by the error that brought us here.
      }
      resolve(address);
    };
    socket.once("error", () => done(null));
    socket.connect(9, probe, () => done(socket.address().address));
  });
}

let outbound: { address: string; at: number } | null = null;

/** The address a direct exit's traffic leaves from: IPv4 first (documentation addresses stand
 * for "anywhere on the internet"), then IPv6; loopback on a host with no route out. */
async function outboundAddress(): Promise<string> {
  if (outbound && Date.now() - outbound.at < OUTBOUND_TTL_MS) return outbound.address;
  const address =
    (await sourceAddressTowards("udp4", "192.0.2.1")) ??
    (await sourceAddressTowards("udp6", "2001:db8::1")) ??
    "127.0.0.1";
  outbound = { address, at: Date.now() };
  return address;
}

/** The answer in ipinfo.io's shape, as the server's own GET /ipinfo gives it: only the address
 * is real (no geography database). */
export async function ipInfo(): Promise<Record<string, string | boolean>> {
  const ip = await outboundAddress();
  const parsed = parseIpLiteral(ip);
  const bogon = parsed !== null && bogons.some((cidr) => cidrContains(cidr, parsed));
  return { ip, bogon, org: bogon ? "Private network" : "Unknown network", country: "", region: "", city: "" };
}

let answering: Promise<string> | null = null;

/** Starts the answering server on first use; it holds no client and keeps no process alive. */
function answerer(): Promise<string> {
  answering ??= new Promise<string>((resolve, reject) => {
    const path = socketPath();
    const server = http.createServer((_request, response) => {
      ipInfo().then(
        (body) => response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body)),
        () => response.writeHead(500).end(),
      );
    });
    server.once("error", (error) => {
      answering = null;
      reject(error);
    });
    server.listen(path, () => {
      server.unref();
      resolve(path);
    });
  });
  return answering;
}

/** A socket to the gateway's own IP-info answer, read into the shared buffer like a target's. */
export async function connectIpInfoAnswer(): Promise<{ socket: net.Socket; reads: SharedReads }> {
  const path = await answerer();
  return new Promise((resolve, reject) => {
    const reads = new SharedReads();
    const socket = net.connect({ path, onread: reads.onread });
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.removeListener("error", reject);
      resolve({ socket, reads });
    });
  });
}
