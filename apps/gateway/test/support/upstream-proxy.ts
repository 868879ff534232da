import http from "node:http";
import https from "node:https";
import net, { type AddressInfo } from "node:net";

/** A stand-in for a mobile or datacenter exit: a minimal forward proxy (CONNECT, and plain
 * requests in absolute form) that records which targets went through it. With `tls` it is an https:// upstream (TLS
 * from the gateway to the proxy, CONNECT inside it). */
export interface UpstreamProxy {
  url: string;
  port: number;
  tunnels: string[];
  /** Proxy-Authorization of every CONNECT and plain request received, accepted or not. */
  authorizations: (string | undefined)[];
  /** The absolute-form request targets of plain requests forwarded. */
  requests: string[];
  /** Bytes exchanged with the gateway on connections that carried plain requests, both ways. */
  plainBytes(): number;
  /** Bytes spliced between the gateway and the targets, both ways, CONNECT exchange excluded:
   * counted on the target sockets, so they equal what the targets saw. */
  splicedBytes(): number;
  close(): Promise<void>;
}

/** `port`: listen there (0: any free port), e.g. to start a stopped exit again where it was. */
export async function startUpstreamProxy(
  credentials?: { username: string; password: string },
  tls?: { cert: string; key: string },
  port = 0,
): Promise<UpstreamProxy> {
  const tunnels: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const targets = new Set<net.Socket>();
  let closedBytes = 0;
  const requests: string[] = [];
  const plainSockets = new Set<net.Socket>();
  const forward = (req: http.IncomingMessage, res: http.ServerResponse) => {
    authorizations.push(req.headers["proxy-authorization"]);
    if (!/^http:\/\//.test(req.url ?? "")) return res.writeHead(405).end();
    if (expected && req.headers["proxy-authorization"] !== expected) return res.writeHead(407).end();
    requests.push(req.url as string);
    plainSockets.add(req.socket);
    const { "proxy-authorization": _, ...headers } = req.headers;
    const upstream = http.request(req.url as string, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  };
  // Half-open like the plain server: after the gateway ends its side, the target's last bytes
  // (a TLS close_notify) still reach the gateway, as through a real exit.
  const server = tls
    ? https.createServer({ cert: tls.cert, key: tls.key, allowHalfOpen: true }, forward)
    : http.createServer(forward);
  const expected = credentials
    ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`
    : undefined;
  server.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    client.on("error", () => {});
    authorizations.push(req.headers["proxy-authorization"]);
    if (expected && req.headers["proxy-authorization"] !== expected) {
      client.end("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const [host, port] = (req.url ?? "").split(/:(?=\d+$)/);
    tunnels.push(req.url ?? "");
    const target = net.connect(Number(port), (host ?? "").replace(/^\[|\]$/g, ""), () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    targets.add(target);
    target.on("error", () => client.destroy());
    client.on("close", () => target.destroy());
    target.on("close", () => {
      targets.delete(target);
      closedBytes += target.bytesRead + target.bytesWritten;
      client.end();
    });
  });
  // Half-open sockets (a refused TLS handshake's included) would keep close() waiting.
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const listening = (server.address() as AddressInfo).port;
  const auth = credentials
    ? `${encodeURIComponent(credentials.username)}:${encodeURIComponent(credentials.password)}@`
    : "";
  return {
    // An https upstream is named as its certificate names it.
    url: tls ? `https://${auth}localhost:${listening}` : `http://${auth}127.0.0.1:${listening}`,
    port: listening,
    tunnels,
    authorizations,
    requests,
    plainBytes: () => [...plainSockets].reduce((sum, s) => sum + s.bytesRead + s.bytesWritten, 0),
    splicedBytes: () => closedBytes + [...targets].reduce((sum, s) => sum + s.bytesRead + s.bytesWritten, 0),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
