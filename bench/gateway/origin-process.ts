import http from "node:http";
import type { AddressInfo } from "node:net";

/** The benchmark's target site, in its own process so it does not share a thread with the
 * load generator or the proxy under test. */
const block = Buffer.alloc(1024 * 1024, 120);

const server = http.createServer((req, res) => {
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
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.send?.({ type: "ready", port: (server.address() as AddressInfo).port });
});
process.on("disconnect", () => process.exit(0));
