import http from "node:http";
import net, { type AddressInfo } from "node:net";

/** The source address the test datacenter exit connects from; mobile exits use 127.0.0.1. */
export const DATACENTER_SOURCE = "127.0.0.2";

export interface ExitProxy {
  url: string;
  /** Targets tunnelled through this exit, as CONNECT named them. */
  tunnels: string[];
  /** Plain requests forwarded, in the absolute form they arrived in. */
  requests: string[];
  close(): Promise<void>;
}

/** An exit (CONNECT, and plain requests in absolute form, whose *.test names it resolves to the
 * loopback sites itself, as a real exit resolves names on its own) that reaches targets from
 * `localAddress` (*.test names lead to `testSites`): a stand-in for a datacenter (127.0.0.2) or mobile (127.0.0.1) pool that the test
 * sites can tell apart by source address, as real sites tell datacenter ranges from carrier ones. */
export async function startExitProxy(localAddress: string, testSites = "127.0.0.1"): Promise<ExitProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    if (!/^http:\/\//.test(req.url ?? "")) return res.writeHead(405).end();
    requests.push(req.url as string);
    const url = new URL(req.url as string);
    const forwarded = http.request(
      {
        host: url.hostname.endsWith(".test") ? testSites : url.hostname,
        port: url.port === "" ? 80 : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers: req.headers,
        localAddress,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => res.destroy());
    req.pipe(forwarded);
  });
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    client.on("error", () => {});
    const [host = "", port = ""] = (req.url ?? "").split(/:(?=\d+$)/);
    tunnels.push(req.url ?? "");
    const target = net.connect({ host, port: Number(port), localAddress }, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    sockets.add(target);
    target.on("error", () => client.destroy());
    target.on("close", () => {
      sockets.delete(target);
      client.destroy();
    });
    client.on("close", () => target.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** How a test site treats a request: serve it, or refuse datacenter sources (403 + captcha),
 * or cut datacenter connections (reset). */
export type SiteBehaviour = "serves" | "blocks-datacenter" | "resets-datacenter";

export interface SiteRequest {
  host: string;
  path: string;
  fromDatacenter: boolean;
  startedAt: number;
  endedAt: number;
}

export interface TestSites {
  port: number;
  behaviour: Map<string, SiteBehaviour>;
  requests: SiteRequest[];
  close(): Promise<void>;
}

const FRONT_PAGE = `<!doctype html><html><head><title>Shop</title></head><body>${"<p>Products and prices.</p>".repeat(300)}</body></html>`;
const CAPTCHA_PAGE =
  '<!doctype html><html><body><h1>Are you a robot?</h1><div class="g-recaptcha">Solve the CAPTCHA to continue</div></body></html>';
/** Long enough that two probes of one domain by two instances would overlap. */
const ANSWER_DELAY_MS = 150;

/** One origin on loopback serving every test site by Host header, each with its behaviour; every
 * site answers /forbidden with a 403 to everyone (a page the site keeps for itself, not a block of
 * datacenter exits). */
export async function startTestSites(
  behaviour: Record<string, SiteBehaviour>,
  address = "127.0.0.1",
): Promise<TestSites> {
  const sites = new Map(Object.entries(behaviour));
  const requests: SiteRequest[] = [];
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    const fromDatacenter = req.socket.remoteAddress === DATACENTER_SOURCE;
    const path = req.url ?? "/";
    const record: SiteRequest = { host, path, fromDatacenter, startedAt: Date.now(), endedAt: 0 };
    requests.push(record);
    setTimeout(() => {
      record.endedAt = Date.now();
      const mode = sites.get(host) ?? "serves";
      if (path === "/forbidden") {
        res.writeHead(403, { "content-type": "text/html" }).end("<h1>Forbidden</h1>");
        return;
      }
      if (fromDatacenter && mode === "resets-datacenter") {
        req.socket.resetAndDestroy();
        return;
      }
      if (fromDatacenter && mode === "blocks-datacenter") {
        res.writeHead(403, { "content-type": "text/html" }).end(CAPTCHA_PAGE);
        return;
      }
      res.writeHead(200, { "content-type": "text/html" }).end(FRONT_PAGE);
    }, ANSWER_DELAY_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    behaviour: sites,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
