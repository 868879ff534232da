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
