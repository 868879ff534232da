import { createHash } from "node:crypto";
import net from "node:net";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { SharedReads } from "./shared-reads.ts";
import { SocketReader } from "./socket-reader.ts";

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** A body that never repeats a 64 KiB span, so bytes overwritten by a later read show. */
function body(total: number): Buffer {
  const out = Buffer.allocUnsafe(total);
  for (let i = 0; i < total; i++) out[i] = (Math.imul(i ^ (i >>> 13), 0x9e3779b1) >>> 24) & 0xff;
  return out;
}

describe("SocketReader.pump over shared reads", () => {
  it("hands the shared buffer over when a write stays queued, so queued bytes are never overwritten", async () => {
    const sent = body(3_000_000);
    const server = net.createServer((socket) => socket.end(sent));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const reads = new SharedReads();
      const socket = net.connect({
        port: (server.address() as net.AddressInfo).port,
        host: "127.0.0.1",
        onread: reads.onread,
      });
      const reader = new SocketReader(socket, reads);
      // A destination that keeps every chunk it is given, by reference, and accepts them late
      // while reporting room to spare: exactly where a reused read buffer would be overwritten.
      const kept: Buffer[] = [];
      const slow = new Writable({
        highWaterMark: 64 * 1024 * 1024,
        write(chunk: Buffer, _encoding, done) {
          kept.push(chunk);
          setTimeout(done, 1);
        },
      });
      expect(await reader.pump(slow, null, () => {})).toBe(true);
      await new Promise<void>((resolve) => slow.end(resolve));
      expect(sha256(Buffer.concat(kept))).toBe(sha256(sent));
    } finally {
      server.close();
    }
  });
});
