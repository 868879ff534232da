import { createHash } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";

/** A target web site that counts every raw byte on its sockets, independently of the gateway:
 * what the gateway bills must equal what this origin saw, to the byte. */
export interface TestOrigin {
  port: number;
  /** Bytes received + sent on all sockets so far (TLS records included for the https origin). */
  bytes(): number;
  /** Sockets currently open. */
  openSockets(): number;
  /** Closes kept-alive connections that carry no request right now. */
  closeIdle(): void;
  close(): Promise<void>;
}

/** Byte `i` of every /random body: a pattern that repeats only after 2^32 bytes, so a relay that
 * drops, repeats or overwrites any span of a body changes its digest. */
export function randomBody(total: number, offset = 0): Buffer {
  const out = Buffer.allocUnsafe(total);
  for (let i = 0; i < total; i++) {
    let x = (offset + i) >>> 0;
    x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
    x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
    out[i] = (x ^ (x >>> 16)) & 0xff;
  }
  return out;
}

export const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://origin");
  const random = /^\/random\/(\d+)$/.exec(url.pathname);
  if (random) {
    const total = Number(random[1]);
    res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": String(total) });
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const piece = randomBody(Math.min(total - sent, 37_000), sent);
        sent += piece.length;
        if (!res.write(piece)) {
          res.once("drain", pump);
          return;
        }
      }
      res.end();
    };
    pump();
    return;
  }
  if (url.pathname === "/digest") {
    const hash = createHash("sha256");
    let length = 0;
    req.on("data", (c: Buffer) => {
      hash.update(c);
      length += c.length;
    });
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end(`${length} ${hash.digest("hex")}`);
    });
    return;
  }
  const size = /^\/bytes\/(\d+)$/.exec(url.pathname);
  if (size) {
    const total = Number(size[1]);
    res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": String(total) });
    // Written in pieces so big bodies stream (and can be cut off) instead of sitting in memory.
    const piece = Buffer.alloc(64 * 1024, 97);
    let left = total;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, piece.length);
        left -= n;
        if (!res.write(piece.subarray(0, n))) {
          res.once("drain", pump);
          return;
        }
      }
      res.end();
    };
    pump();
    return;
  }
  if (url.pathname === "/echo") {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      res.writeHead(200, { "Content-Type": "text/plain", "X-Seen-Host": req.headers.host ?? "" });
      res.end(body);
    });
    return;
  }
  const status = /^\/status\/(\d{3})$/.exec(url.pathname);
  if (status) {
    res.writeHead(Number(status[1]), { ETag: '"v1"' });
    res.end();
    return;
  }
  if (url.pathname === "/trailer") {
    res.writeHead(200, { "Content-Type": "text/plain", Trailer: "X-Checksum" });
    res.write("body\n");
    res.addTrailers({ "X-Checksum": "c0ffee" });
    res.end();
    return;
  }
  if (url.pathname === "/chunked") {
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.write("first chunk\n");
    setImmediate(() => res.end("second chunk\n"));
    return;
  }
  res.writeHead(200, {
    "Content-Type": "text/plain",
    "X-Seen-Proxy-Auth": String(req.headers["proxy-authorization"] !== undefined),
  });
  res.end("hello from origin\n");
}

export async function startOrigin(tls?: { cert: string; key: string }): Promise<TestOrigin> {
  const server = tls
    ? https.createServer({ cert: tls.cert, key: tls.key }, handler)
    : http.createServer(handler);
  // Protocol switch: after 101 the origin echoes whatever it receives.
  server.on("upgrade", (_req: http.IncomingMessage, socket: Socket, head: Buffer) => {
    socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n");
    if (head.length) socket.write(head);
    socket.pipe(socket);
  });
  const sockets = new Set<Socket>();
  let closedBytes = 0;
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => {
      sockets.delete(socket);
      closedBytes += socket.bytesRead + socket.bytesWritten;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    bytes: () => closedBytes + [...sockets].reduce((sum, s) => sum + s.bytesRead + s.bytesWritten, 0),
    openSockets: () => sockets.size,
    closeIdle: () => server.closeIdleConnections(),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
