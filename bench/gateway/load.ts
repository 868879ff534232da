import net from "node:net";
import tls from "node:tls";

/** How the load generator reaches the origin: straight, or through a proxy (plain or CONNECT). */
export interface Path {
  name: string;
  /** Port to connect to: the origin itself, or the proxy. */
  port: number;
  proxy: boolean;
  authorization?: string;
  /** Speak TLS to the proxy (the gateway's 8443), with the proxy protocol inside. */
  tls?: boolean;
  /** A SOCKS5 proxy (tunnels only), with RFC 1929 credentials. */
  socks?: { username: string; password: string };
}

/** Every load socket reads into this one buffer (`onread`) and hands each read to its receiver,
 * which copies what it keeps: the client allocates nothing per read, so its CPU — taken from
 * the same two cores as the proxy under test — does not grow with how finely a proxy splits
 * its writes, nor feed the garbage collector. */
const readBuffer = Buffer.allocUnsafe(64 * 1024);
const receivers = new WeakMap<net.Socket, (chunk: Buffer) => void>();

function connect(port: number, overTls = false): Promise<net.Socket> {
  if (overTls) return connectTls(port);
  return new Promise((resolve, reject) => {
    const socket: net.Socket = net.connect(
      {
        port,
        host: "127.0.0.1",
        onread: {
          buffer: readBuffer,
          callback: (length, buffer) => {
            receivers.get(socket)?.((buffer as Buffer).subarray(0, length));
            return true;
          },
        },
      },
      () => resolve(socket),
    );
    socket.setNoDelay(true);
    socket.once("error", reject);
  });
}

/** TLS sockets take no `onread`: their decrypted chunks go to the same receivers. */
function connectTls(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket: tls.TLSSocket = tls.connect({ port, host: "127.0.0.1", rejectUnauthorized: false }, () =>
      resolve(socket),
    );
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => receivers.get(socket)?.(chunk));
    socket.once("error", reject);
  });
}

/** The proxy closed a kept-alive connection before answering: retry on a new one, as HTTP
 * clients do for idempotent requests (tinyproxy closes after every response, unannounced). */
class StaleConnection extends Error {}

/** Reads one HTTP/1.1 response with a Content-Length body, counting (not keeping) the body. */
function readResponse(socket: net.Socket): Promise<{ closeAfter: boolean }> {
  return new Promise((resolve, reject) => {
    let head: Buffer = Buffer.alloc(0);
    let remaining = -1;
    let closeAfter = false;
    const finish = () => {
      receivers.delete(socket);
      socket.removeListener("close", onClose);
      resolve({ closeAfter });
    };
    const onData = (chunk: Buffer) => {
      if (remaining >= 0) {
        remaining -= chunk.length;
        if (remaining <= 0) finish();
        return;
      }
      head = Buffer.concat([head, chunk]); // a copy: `chunk` is the shared read buffer
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) return;
      const text = head.subarray(0, end).toString("latin1");
      if (!/^HTTP\/1\.[01] 200/.test(text)) {
        reject(new Error(`unexpected response: ${text.split("\r\n")[0]}`));
        return;
      }
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(text)?.[1] ?? "0");
      closeAfter = /\r\nconnection:\s*close/i.test(text) || text.startsWith("HTTP/1.0");
      remaining = length - (head.length - end - 4);
      if (remaining <= 0) finish();
    };
    const onClose = () =>
      reject(
        head.length === 0 && remaining < 0
          ? new StaleConnection()
          : new Error("connection closed mid-response"),
      );
    receivers.set(socket, onData);
    socket.once("close", onClose);
  });
}

/** Reads exactly `count` bytes of a SOCKS5 exchange after sending `message`. */
function socksStep(socket: net.Socket, message: Buffer, count: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let got: Buffer = Buffer.alloc(0);
    receivers.set(socket, (chunk) => {
      got = Buffer.concat([got, chunk]);
      if (got.length < count) return;
      receivers.delete(socket);
      if (got.length > count) reject(new Error("SOCKS5 proxy sent more than its reply"));
      else resolve(got);
    });
    socket.write(message);
  });
}

/** A SOCKS5 CONNECT (RFC 1928, username/password of RFC 1929) to the origin on 127.0.0.1. */
async function openSocksTunnel(path: Path, originPort: number): Promise<net.Socket> {
  const { username, password } = path.socks as { username: string; password: string };
  const socket = await connect(path.port);
  await socksStep(socket, Buffer.from([5, 1, 2]), 2);
  const user = Buffer.from(username);
  const pass = Buffer.from(password);
  const status = await socksStep(
    socket,
    Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]),
    2,
  );
  if (status[1] !== 0) throw new Error("SOCKS5 credentials refused");
  const reply = await socksStep(
    socket,
    Buffer.from([5, 1, 0, 1, 127, 0, 0, 1, originPort >> 8, originPort & 0xff]),
    10,
  );
  if (reply[1] !== 0) throw new Error(`SOCKS5 CONNECT refused: reply ${reply[1]}`);
  return socket;
}

/** Opens a tunnel to the origin (CONNECT, or SOCKS5 for a SOCKS path) and resolves once the
 * proxy said it is established. */
export function openTunnel(path: Path, originPort: number): Promise<net.Socket> {
  if (path.socks) return openSocksTunnel(path, originPort);
  return connect(path.port, path.tls).then(
    (socket) =>
      new Promise((resolve, reject) => {
        let head = "";
        const onData = (chunk: Buffer) => {
          head += chunk.toString("latin1");
          if (!head.includes("\r\n\r\n")) return;
          receivers.delete(socket);
          if (/^HTTP\/1\.[01] 200/.test(head)) resolve(socket);
          else reject(new Error(`CONNECT refused: ${head.split("\r\n")[0]}`));
        };
        receivers.set(socket, onData);
        const auth = path.authorization ? `Proxy-Authorization: ${path.authorization}\r\n` : "";
        socket.write(
          `CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\n${auth}\r\n`,
        );
      }),
  );
}

function requestText(path: Path, originPort: number, target: string, viaTunnel: boolean): string {
  const absolute = path.proxy && !viaTunnel;
  const line = absolute ? `http://127.0.0.1:${originPort}${target}` : target;
  const auth = absolute && path.authorization ? `Proxy-Authorization: ${path.authorization}\r\n` : "";
  return `GET ${line} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\n${auth}\r\n`;
}

/** One large download over a fresh connection; returns MB/s (1 MB = 1e6 bytes). */
export async function bulkDownload(
  path: Path,
  originPort: number,
  bytes: number,
  tunnel: boolean,
): Promise<number> {
  const socket =
    tunnel && path.proxy ? await openTunnel(path, originPort) : await connect(path.port, path.tls);
  const started = process.hrtime.bigint();
  const done = readResponse(socket);
  socket.write(requestText(path, originPort, `/bytes/${bytes}`, tunnel));
  await done;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  socket.destroy();
  return bytes / 1e6 / seconds;
}

/** `tunnels` downloads of `bytes / tunnels` each at once, over fresh connections (CONNECT tunnels
 * through a proxy when `tunnel`); returns their combined MB/s, first start to last finish. */
export async function parallelDownload(
  path: Path,
  originPort: number,
  bytes: number,
  tunnel: boolean,
  tunnels: number,
): Promise<number> {
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: tunnels }, () =>
      bulkDownload(path, originPort, Math.floor(bytes / tunnels), tunnel),
    ),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return bytes / 1e6 / seconds;
}

export interface LatencyResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** `connections` keep-alive clients each sending `perConnection` small requests back to back.
 * A proxy that closes after every response (tinyproxy) is reconnected, and that reconnect is
 * part of the next request's latency. */
export async function smallRequests(
  path: Path,
  originPort: number,
  connections: number,
  perConnection: number,
): Promise<LatencyResult> {
  const latencies: number[] = [];
  const request = requestText(path, originPort, "/small", false);
  const worker = async () => {
    let socket: net.Socket | null = null;
    for (let i = 0; i < perConnection; i++) {
      const started = process.hrtime.bigint();
      let closeAfter = false;
      for (let attempt = 0; ; attempt++) {
        if (!socket || socket.readableEnded || socket.destroyed) socket = await connect(path.port, path.tls);
        const done = readResponse(socket);
        socket.write(request);
        try {
          closeAfter = (await done).closeAfter;
          break;
        } catch (error) {
          socket.destroy();
          socket = null;
          if (!(error instanceof StaleConnection) || attempt > 3) throw error;
        }
      }
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (closeAfter) {
        socket.destroy();
        socket = null;
      }
    }
    socket?.destroy();
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requestsPerSecond: latencies.length / seconds, p50Ms: at(0.5), p99Ms: at(0.99) };
}

/** Opens `count` CONNECT tunnels (in batches) and leaves them idle; returns them for closing. */
export async function idleTunnels(path: Path, originPort: number, count: number): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  while (sockets.length < count) {
    const batch = Math.min(50, count - sockets.length);
    sockets.push(...(await Promise.all(Array.from({ length: batch }, () => openTunnel(path, originPort)))));
  }
  for (const socket of sockets) socket.on("error", () => {});
  return sockets;
}
