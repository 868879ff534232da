import http from "node:http";
import net, { type AddressInfo } from "node:net";

/** A stand-in for a mobile or datacenter exit: a minimal CONNECT-only forward proxy that
 * records which targets were tunnelled through it. */
export interface UpstreamProxy {
  url: string;
  port: number;
  tunnels: string[];
  close(): Promise<void>;
}

export async function startUpstreamProxy(credentials?: {
  username: string;
  password: string;
}): Promise<UpstreamProxy> {
  const tunnels: string[] = [];
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  const expected = credentials
    ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`
    : undefined;
  server.on("connect", (req, client: net.Socket, head: Buffer) => {
    client.on("error", () => {});
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
    target.on("error", () => client.destroy());
    client.on("close", () => target.destroy());
    target.on("close", () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const auth = credentials ? `${credentials.username}:${credentials.password}@` : "";
  return {
    url: `http://${auth}127.0.0.1:${port}`,
    port,
    tunnels,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
