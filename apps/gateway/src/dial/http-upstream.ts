import type net from "node:net";
import type { UpstreamSpec } from "@bytetoll/egress";
import type { SharedReads } from "../base/shared-reads.ts";

/** The most an upstream's answer to CONNECT may take before its blank line. */
const MAX_CONNECT_REPLY = 16 * 1024;

/* How a dial reaches a target through an HTTP(S) upstream proxy: its CONNECT, and the account
 * the upstream wants. */

/** Opens a CONNECT tunnel through an HTTP(S) upstream proxy, given up after `timeoutMs`. Bytes
 * that arrive in the same packet as the upstream's reply belong to the target and are put back
 * on the stream; resolves with how many. */
export function connectThroughHttpProxy(
  { socket, reads }: { socket: net.Socket; reads: SharedReads },
  upstream: UpstreamSpec,
  target: { address: string; port: number },
  timeoutMs: number,
) {
  return new Promise<number>((resolve, reject) => {
    const authority = target.address.includes(":")
      ? `[${target.address}]:${target.port}`
      : `${target.address}:${target.port}`;
    const head = `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${proxyAuthorization(upstream)}`;
    let received = Buffer.alloc(0);
    const cleanup = () => {
      reads.sink = null;
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
      if (leftover.length > 0) reads.early.push(leftover);
      resolve(leftover.length);
    };
    reads.sink = (data) => {
      onData(data);
      return true;
    };
    socket.on("error", onError);
    socket.on("end", onEnd);
    const onTimeout = () => onError(new Error("upstream CONNECT timed out"));
    socket.setTimeout(timeoutMs);
    socket.on("timeout", onTimeout);
    socket.write(`${head}\r\n`);
  });
}

/** The `Proxy-Authorization` header line (with its CRLF) an upstream's account needs, or "". */
export function proxyAuthorization(upstream: UpstreamSpec): string {
  if (upstream.kind === "direct" || upstream.username === undefined) return "";
  const basic = Buffer.from(`${upstream.username}:${upstream.password ?? ""}`).toString("base64");
  return `Proxy-Authorization: Basic ${basic}\r\n`;
}
