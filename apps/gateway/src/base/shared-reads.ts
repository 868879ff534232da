import type { OnReadOpts } from "node:net";
import type { Writable } from "node:stream";
import { TLSSocket } from "node:tls";

/** Room for one read from a target socket. */
const READ_BUFFER_BYTES = 64 * 1024;
/** Read buffers kept for reuse once the TLS writes that held them have completed. */
const SPARE_BUFFERS = 16;

let sharedBuffer: Buffer = Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
const spare: Buffer[] = [];

/**
 * Writes `chunk`, bytes of the shared buffer just read, to `to`. When the write has to queue
 * (`to` still holds unsent bytes) the queue keeps that memory, so later reads go to another
 * buffer. A plain socket queues only when its peer is slow (and reading then pauses), so a new
 * buffer is rare. A TLS socket (the client side of 8443) queues every write until it is
 * encrypted and sent: a new 64 KiB per read there made V8 collect its whole heap over and over
 * (external memory pressure, about half the CPU of a download through 8443), so its buffers come
 * back for reuse when their writes complete.
 */
export function writeShared(to: Writable, chunk: Buffer): boolean {
  if (!(to instanceof TLSSocket)) {
    const flowing = to.write(chunk);
    if (to.writableLength > 0) sharedBuffer = Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
    return flowing;
  }
  const lent = sharedBuffer;
  let queued = false;
  // Never called before write() returns, so `queued` is settled by then.
  const flowing = to.write(chunk, () => {
    if (queued && spare.length < SPARE_BUFFERS) spare.push(lent);
  });
  if (to.writableLength > 0) {
    queued = true;
    sharedBuffer = spare.pop() ?? Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
  }
  return flowing;
}

/**
 * Reads of target sockets land in one buffer that all of them share (`onread` of
 * `net.connect`/`tls.connect`) instead of a new 64 KiB buffer per read: at bulk rates those
 * per-read buffers made V8 run a full garbage collection every few dozen milliseconds
 * ("external memory pressure"), which cost more CPU than relaying the bytes. Reads run one at a
 * time on the event loop, so whoever handles one must be done with its bytes when it returns:
 * copy them, or write them with `writeShared`.
 */
export class SharedReads {
  /** Handles each read; returns false to stop reading until the socket is resumed. */
  sink: ((data: Buffer) => boolean) | null = null;
  /** Copies of reads that arrived while no sink was set, oldest first; reading then stops. */
  readonly early: Buffer[] = [];

  readonly onread: OnReadOpts = {
    buffer: () => sharedBuffer,
    callback: (length, buffer) => {
      const data = (buffer as Buffer).subarray(0, length);
      if (this.sink) return this.sink(data);
      this.early.push(Buffer.from(data));
      return false;
    },
  };
}
