import net from "node:net";
import tls from "node:tls";
import { SocksClient } from "socks";
import { Refusal } from "./refusal.ts";
import { SharedReads, sharedReadsOf } from "./shared-reads.ts";
import type { UpstreamSpec } from "./upstreams.ts";

/** Byte counters of a socket at the point where target traffic begins: everything before it
 * (an upstream proxy's CONNECT or SOCKS handshake) is the proxy's own business, never billed. */
export interface ByteCursor {
  read: number;
  written: number;
}

export const cursorOf = new WeakMap<net.Socket, ByteCursor>();

export interface DialTarget {
  address: string;
  port: number;
}

const CONNECT_TIMEOUT_MS = 10_000;
const MAX_CONNECT_REPLY = 16 * 1024;

const upstreamContexts = new Map<string, tls.SecureContext>();

/** Node's bundled roots plus the configured CA, built once per CA text: a context made from a
 * `ca` list on every dial would parse ~140 root certificates each time. */
function secureContextFor(ca: string): tls.SecureContext {
  let context = upstreamContexts.get(ca);
  if (!context) {
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, ca] });
    upstreamContexts.set(ca, context);
  }
  return context;
}

/** Target sockets, plain TCP and TLS to an https upstream alike, read into the shared buffer
 * (shared-reads.ts; a TLS socket hands it the decrypted bytes). TLS verifies the chain and the
 * host name (default checkServerIdentity; an IP address is checked against the certificate's
 * IP entries). */
function connectTcp(
  host: string,
  port: number,
  secure: { ca: string | undefined } | null,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const reads = new SharedReads();
    let socket: net.Socket;
    if (secure) {
      // tls.connect hands `onread` to its TLSSocket (lib/_tls_wrap.js); @types/node omits it.
      const options: tls.ConnectionOptions & { onread: net.OnReadOpts } = {
        host,
        port,
        servername: net.isIP(host) ? undefined : host,
        secureContext: secure.ca === undefined ? undefined : secureContextFor(secure.ca),
        onread: reads.onread,
      };
      socket = tls.connect(options);
    } else socket = net.connect({ host, port, onread: reads.onread });
    sharedReadsOf.set(socket, reads);
    socket.setNoDelay(true);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    const onTimeout = () => fail(new Error(`connect to ${host}:${port} timed out`));
    socket.setTimeout(CONNECT_TIMEOUT_MS);
    socket.once("timeout", onTimeout);
    socket.once("error", fail);
    socket.once(secure ? "secureConnect" : "connect", () => {
      socket.setTimeout(0);
      socket.removeListener("timeout", onTimeout);
      socket.removeListener("error", fail);
      resolve(socket);
    });
  });
}

/** Opens a CONNECT tunnel through an HTTP(S) upstream proxy. Bytes that arrive in the same
 * packet as the upstream's reply belong to the target and are put back on the stream. */
function connectThroughHttpProxy(socket: net.Socket, upstream: UpstreamSpec, target: DialTarget) {
  return new Promise<number>((resolve, reject) => {
    const authority = target.address.includes(":")
      ? `[${target.address}]:${target.port}`
      : `${target.address}:${target.port}`;
    let head = `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n`;
    if (upstream.kind !== "direct" && upstream.username !== undefined) {
      const basic = Buffer.from(`${upstream.username}:${upstream.password ?? ""}`).toString("base64");
      head += `Proxy-Authorization: Basic ${basic}\r\n`;
    }
    let received = Buffer.alloc(0);
    const reads = sharedReadsOf.get(socket);
    const cleanup = () => {
      if (reads) reads.sink = null;
      else socket.removeListener("data", onData);
      socket.removeListener("error", onError);
      socket.removeListener("end", onEnd);
      socket.removeListener("timeout", onTimeout);
      socket.setTimeout(0);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onEnd = () => onError(new Error("upstream closed during CONNECT"));
    // Buffer.concat copies, so a chunk in the shared read buffer is safe to pass.
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      if (end === -1) {
        if (received.length > MAX_CONNECT_REPLY) onError(new Error("upstream CONNECT reply too large"));
        return;
      }
      cleanup();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received.subarray(0, end).toString("latin1"))?.[1];
      if (status !== "200") {
        reject(new Error(`upstream answered CONNECT with ${status ?? "garbage"}`));
        return;
      }
      const leftover = received.subarray(end + 4);
      // Held until the relay attaches its reader, so these bytes cannot be emitted to nobody.
      if (reads) {
        if (leftover.length > 0) reads.early.push(leftover);
      } else if (leftover.length > 0) {
        socket.pause();
        socket.unshift(leftover);
      }
      resolve(leftover.length);
    };
    if (reads)
      reads.sink = (data) => {
        onData(data);
        return true;
      };
    else socket.on("data", onData);
    socket.on("error", onError);
    socket.on("end", onEnd);
    const onTimeout = () => onError(new Error("upstream CONNECT timed out"));
    socket.setTimeout(CONNECT_TIMEOUT_MS);
    socket.on("timeout", onTimeout);
    socket.write(`${head}\r\n`);
  });
}

async function dialUnchecked(upstream: UpstreamSpec, target: DialTarget): Promise<net.Socket> {
  if (upstream.kind === "direct") {
    const socket = await connectTcp(target.address, target.port, null);
    cursorOf.set(socket, { read: socket.bytesRead, written: socket.bytesWritten });
    return socket;
  }
  if (upstream.kind === "socks5") {
    const { socket } = await SocksClient.createConnection({
      proxy: {
        host: upstream.host,
        port: upstream.port,
        type: 5,
        userId: upstream.username,
        password: upstream.password,
      },
      command: "connect",
      destination: { host: target.address, port: target.port },
      timeout: CONNECT_TIMEOUT_MS,
    });
    socket.setNoDelay(true);
    cursorOf.set(socket, { read: socket.bytesRead, written: socket.bytesWritten });
    return socket;
  }
  const socket = await connectTcp(
    upstream.host,
    upstream.port,
    upstream.kind === "https" ? { ca: upstream.ca } : null,
  );
  try {
    const leftover = await connectThroughHttpProxy(socket, upstream, target);
    cursorOf.set(socket, { read: socket.bytesRead - leftover, written: socket.bytesWritten });
  } catch (error) {
    socket.destroy();
    throw error;
  }
  return socket;
}

/** A socket whose application stream is the target's: direct, or tunnelled through the chosen
 * upstream. Any failure becomes a 502 upstream_failed refusal. The caller attaches its readers
 * in the same tick. */
export async function dial(upstream: UpstreamSpec, target: DialTarget): Promise<net.Socket> {
  try {
    const socket = await dialUnchecked(upstream, target);
    // Whoever uses the socket handles its errors; this keeps a late one from being unhandled.
    socket.on("error", () => {});
    return socket;
  } catch (error) {
    throw new Refusal(
      "upstream_failed",
      `Could not reach ${target.address}:${target.port} via ${upstream.id}: ${(error as Error).message}`,
    );
  }
}
