import type { OnReadOpts } from "node:net";

/** Room for one read from a target socket. */
const READ_BUFFER_BYTES = 64 * 1024;

let sharedBuffer = Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);

/** Called after writing bytes of the shared buffer: when the write had to queue (`to` still holds
 * unsent bytes), the queue keeps that memory, so later reads must go elsewhere. */
export function releaseSharedBytes(to: { writableLength: number }): void {
  if (to.writableLength > 0) sharedBuffer = Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
}

/**
 * Reads of target sockets land in one buffer that all of them share (`onread` of
 * `net.connect`/`tls.connect`) instead of a new 64 KiB buffer per read: at bulk rates those
 * per-read buffers made V8 run a full garbage collection every few dozen milliseconds
 * ("external memory pressure"), which cost more CPU than relaying the bytes. Reads run one at a
 * time on the event loop, so whoever handles one must be done with its bytes when it returns:
 * copy them, or write them and call `releaseSharedBytes`.
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
