import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { selfSignedCertificate } from "../../apps/gateway/src/base/tls-certificate.ts";

/** The benchmark's target site, in its own process so it does not share a thread with the
 * load generator or the proxy under test. */
const block = Buffer.alloc(1024 * 1024, 120);

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const size = /^\/bytes\/(\d+)$/.exec(req.url ?? "");
  if (size) {
    let left = Number(size[1]);
    res.writeHead(200, { "Content-Length": String(left), "Content-Type": "application/octet-stream" });
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, block.length);
        left -= n;
        if (!res.write(n === block.length ? block : block.subarray(0, n)))
          return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
    return;
  }
  res.writeHead(200, { "Content-Length": "2", "Content-Type": "text/plain" });
  res.end("ok");
}

const server = http.createServer(handle);
server.keepAliveTimeout = 60_000;
/** The same site over TLS: short tunnels that carry HTTPS, as most scrapers' do. */
const secure = https.createServer(await selfSignedCertificate(undefined), handle);
secure.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
await new Promise<void>((resolve) => secure.listen(0, "127.0.0.1", resolve));
process.send?.({
  type: "ready",
  port: (server.address() as AddressInfo).port,
  tlsPort: (secure.address() as AddressInfo).port,
});
process.on("disconnect", () => process.exit(0));
