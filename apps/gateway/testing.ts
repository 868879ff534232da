import http from "node:http";
import net from "node:net";

/** Test support shared by the gateway's, the server's and the web app's tests and the benches:
 * loopback ports and a proxy client that sends a request as a customer's software does. */

/** Below the kernel's ephemeral range (Linux: 32768–60999): a port in that range can be taken
 * by any outgoing connection on the machine between the moment it is found free and the moment
 * a child process listens on it, which made a server spawned by a test fail with "Port … is
 * already in use" on a busy run. Here only another test picking the same port can collide: each
 * process walks the range from its own random start. */
const PORT_RANGE = { first: 20_000, last: 32_000 };
let nextPort = PORT_RANGE.first + Math.floor(Math.random() * (PORT_RANGE.last - PORT_RANGE.first));

function listensOn(port: number): Promise<boolean> {
  const probe = net.createServer();
  return new Promise((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** A TCP port on 127.0.0.1 that nothing listens on right now, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < PORT_RANGE.last - PORT_RANGE.first; attempt++) {
    const port = nextPort;
    nextPort = port >= PORT_RANGE.last ? PORT_RANGE.first : port + 1;
    if (await listensOn(port)) return port;
  }
  throw new Error(`no free port between ${PORT_RANGE.first} and ${PORT_RANGE.last}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

/** Resolves once 127.0.0.1:`port` accepts a connection; tries every 50 ms, `attempts` times. */
export async function waitForPort(port: number, attempts = 300): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

export interface ProxiedGet {
  /** The plain-HTTP forward proxy's port on 127.0.0.1. */
  proxyPort: number;
  /** The absolute URL the proxy is asked to fetch. */
  target: string;
  username: string;
  password: string;
}

export interface ProxiedResponse {
  status: number;
  /** The gateway's refusal code (x-bytetoll-error), when it refused. */
  error: string | undefined;
  /** Body bytes read to the end of the response. */
  bytes: number;
}

/** One plain-HTTP GET through a forward proxy with Basic proxy credentials, on its own
 * connection; resolves once the response has been read to its end. A relay that makes no
 * progress for 5 s fails rather than waiting for the test's own timeout. */
export function getThroughProxy({
  proxyPort,
  target,
  username,
  password,
}: ProxiedGet): Promise<ProxiedResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: "127.0.0.1",
      port: proxyPort,
      path: target,
      agent: false,
      headers: {
        host: new URL(target).host,
        connection: "close",
        "proxy-authorization": `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`,
      },
    });
    let headersAt = -1;
    const started = Date.now();
    request.on("response", (response) => {
      headersAt = Date.now() - started;
      let bytes = 0;
      response.on("error", reject);
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          error: response.headers["x-bytetoll-error"] as string | undefined,
          bytes,
        }),
      );
    });
    request.on("error", reject);
    request.setTimeout(5_000, () =>
      request.destroy(
        new Error(
          `no progress through the proxy for 5 s (${headersAt < 0 ? "no response" : `response after ${headersAt} ms`})`,
        ),
      ),
    );
    request.end();
  });
}

/** getThroughProxy for a request that must succeed: fails unless the proxy relayed a 200. */
export async function getOkThroughProxy(get: ProxiedGet): Promise<ProxiedResponse> {
  const response = await getThroughProxy(get);
  if (response.status !== 200) throw new Error(`gateway answered ${response.status}`);
  return response;
}

export interface ByteOrigin {
  /** http://127.0.0.1:<port><path> */
  url(path: string): string;
  /** Raw bytes the origin's sockets carried (headers included), counted by the origin itself
   * at each socket's close. */
  bytesCarried(): number;
  /** Resolves when the origin's next socket to be accepted has closed. */
  nextSocketClosed(): Promise<void>;
  close(): Promise<void>;
}

/** A plain HTTP site on 127.0.0.1 that answers every request with `bodyBytes` bytes and closes
 * the connection after it, so its own byte count is complete at socket close. */
export async function startByteOrigin(bodyBytes: number): Promise<ByteOrigin> {
  let carried = 0;
  const closeWaiters: Array<() => void> = [];
  const server = http.createServer((_request, response) => {
    response.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-length": bodyBytes,
      connection: "close",
    });
    response.end(Buffer.alloc(bodyBytes, 120));
  });
  server.on("connection", (socket: net.Socket) => {
    socket.on("close", () => {
      carried += socket.bytesRead + socket.bytesWritten;
      closeWaiters.shift()?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    bytesCarried: () => carried,
    nextSocketClosed: () => new Promise((resolve) => closeWaiters.push(resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
