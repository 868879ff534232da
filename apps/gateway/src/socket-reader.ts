import type { Duplex } from "node:stream";

/**
 * Pull-style reading of a socket: `read()` resolves with the next chunk, or null once the peer
 * has finished. At most one chunk waits here (the socket is paused meanwhile), so a slow
 * reader applies backpressure to the sender instead of buffering.
 */
export class SocketReader {
  private readonly chunks: Buffer[] = [];
  private finished = false;
  private wake: (() => void) | null = null;
  private readonly onData = (chunk: Buffer) => {
    this.chunks.push(chunk);
    this.socket.pause();
    this.notify();
  };
  private readonly onFinish = () => {
    this.finished = true;
    this.notify();
  };

  constructor(readonly socket: Duplex) {
    socket.on("data", this.onData);
    socket.on("end", this.onFinish);
    socket.on("close", this.onFinish);
    socket.on("error", this.onFinish);
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** True when nothing more will ever arrive and nothing is buffered. */
  get exhausted(): boolean {
    return this.finished && this.chunks.length === 0;
  }

  async read(): Promise<Buffer | null> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) {
        if (this.chunks.length === 0 && !this.finished) this.socket.resume();
        return chunk;
      }
      if (this.finished) return null;
      this.socket.resume();
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  /**
   * Copies the next `limit` bytes (Infinity: until the peer finishes) straight into `to`, in push
   * mode: bulk bodies move without a promise round trip per chunk, with the same backpressure
   * (the source pauses while `to` is full). Bytes past `limit` stay buffered for the next
   * message. `onChunk` runs after every write (metering). Resolves false when either side went
   * away before `limit` bytes were copied (for Infinity: only when `to` went away).
   */
  pump(to: Duplex, limit: number, onChunk: () => void): Promise<boolean> {
    const socket = this.socket;
    return new Promise<boolean>((resolve) => {
      let left = limit;
      let settled = false;
      const settle = (ok: boolean) => {
        if (settled) return;
        settled = true;
        socket.removeListener("data", onPumpData);
        to.removeListener("drain", onDrain);
        to.removeListener("close", onTargetClose);
        this.wake = null;
        socket.pause();
        socket.on("data", this.onData);
        resolve(ok);
      };
      const deliver = (data: Buffer): boolean => {
        let chunk = data;
        if (chunk.length > left) {
          this.chunks.unshift(chunk.subarray(left));
          chunk = chunk.subarray(0, left);
        }
        left -= chunk.length;
        if (to.destroyed || !to.writable) {
          settle(false);
          return false;
        }
        const flowing = to.write(chunk);
        onChunk();
        if (left === 0) {
          settle(true);
          return false;
        }
        if (!flowing) {
          socket.pause();
          return false;
        }
        return true;
      };
      const onPumpData = (chunk: Buffer) => {
        if (!settled) deliver(chunk);
      };
      const onDrain = () => {
        if (!settled) socket.resume();
      };
      const onTargetClose = () => settle(false);
      const onSourceFinish = () => settle(left === 0 || limit === Number.POSITIVE_INFINITY);

      socket.removeListener("data", this.onData);
      while (this.chunks.length > 0 && !settled) {
        const chunk = this.chunks.shift() as Buffer;
        if (!deliver(chunk) && settled) return;
      }
      if (settled) return;
      if (left === 0) return settle(true);
      if (this.finished) return onSourceFinish();
      socket.on("data", onPumpData);
      to.on("drain", onDrain);
      to.once("close", onTargetClose);
      // The reader's own end/close/error handlers set `finished` and call wake().
      this.wake = onSourceFinish;
      if (to.writableNeedDrain) socket.pause();
      else socket.resume();
    });
  }

  /** Puts bytes read too far (the start of the next message) back in front. */
  unshift(data: Buffer): void {
    if (data.length > 0) this.chunks.unshift(data);
  }

  /** Hands the socket over (to a pipe): stops listening and returns what was buffered. */
  detach(): Buffer[] {
    this.socket.removeListener("data", this.onData);
    this.socket.removeListener("end", this.onFinish);
    this.socket.removeListener("close", this.onFinish);
    this.socket.removeListener("error", this.onFinish);
    return this.chunks.splice(0);
  }
}

/** Writes and waits while the peer is slow; resolves false if the socket died meanwhile. */
export function writeAll(socket: Duplex, data: Buffer | string): Promise<boolean> | boolean {
  if (socket.destroyed || !socket.writable) return false;
  if (socket.write(data)) return true;
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      socket.removeListener("drain", onDrain);
      socket.removeListener("close", onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    socket.once("drain", onDrain);
    socket.once("close", onClose);
  });
}
