import type { Duplex, Writable } from "node:stream";
import type { BodyScanner } from "./body-scanner.ts";
import { type SharedReads, writeShared } from "./shared-reads.ts";

/**
 * Pull-style reading of a socket: `read()` resolves with the next chunk, or null once the peer
 * has finished. At most one chunk waits here (the socket is paused meanwhile), so a slow
 * reader applies backpressure to the sender instead of buffering. Sockets dialed with shared
 * reads (shared-reads.ts) are read through their sink instead of `data` events.
 */
export class SocketReader {
  // Read by LivePump (below), which moves a body for this reader.
  readonly chunks: Buffer[] = [];
  finished = false;
  wake: (() => void) | null = null;
  private parked: (() => boolean) | null = null;
  readonly onData = (chunk: Buffer) => {
    this.chunks.push(chunk);
    this.socket.pause();
    this.notify();
  };
  readonly onSharedData = (data: Buffer): boolean => {
    this.chunks.push(Buffer.from(data));
    this.notify();
    return false;
  };
  private readonly onFinish = () => {
    this.finished = true;
    this.notify();
  };

  /** `shared`: the shared reads the socket was dialed with (null: it emits `data` as usual). */
  constructor(
    readonly socket: Duplex,
    readonly shared: SharedReads | null = null,
  ) {
    if (this.shared) {
      this.chunks.push(...this.shared.early.splice(0));
      this.shared.sink = this.onSharedData;
    } else socket.on("data", this.onData);
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
   * Copies a message body (`body` finds its end; null: until the peer finishes) straight into
   * `to`, in push mode: bulk bodies move without a promise round trip per chunk, with the same
   * backpressure (the source pauses while `to` is full). Bytes past the body stay buffered for
   * the next message. `onChunk` runs after every write (metering). Resolves false when either
   * side went away before the body was complete (until-finish: only when `to` went away);
   * rejects with what `body.scan` threw.
   */
  pump(to: Writable, body: BodyScanner | null, onChunk: () => void): Promise<boolean> {
    return (body && this.pumpBuffered(to, body, onChunk)) ?? this.pumpLive(to, body, onChunk);
  }

  /** A body found whole in what is buffered already (a small one that came in with its head)
   * is relayed at once, without the listeners and closures of a body still arriving, which cost
   * more than the relaying. Null when more of it has to be read (what was buffered is
   * written). Nothing can arrive meanwhile: it all happens in one turn of the event loop. */
  private pumpBuffered(to: Writable, body: BodyScanner, onChunk: () => void): Promise<boolean> | null {
    while (!body.done) {
      let chunk = this.chunks.shift();
      if (!chunk) return null;
      let used: number;
      try {
        used = body.scan(chunk);
      } catch (error) {
        this.pumpSettled();
        return Promise.reject(error);
      }
      if (used < chunk.length) {
        this.chunks.unshift(chunk.subarray(used));
        chunk = chunk.subarray(0, used);
      }
      if (to.destroyed || !to.writable) {
        this.pumpSettled();
        return Promise.resolve(false);
      }
      if (chunk.length > 0) {
        to.write(chunk);
        onChunk();
      }
    }
    this.pumpSettled();
    return Promise.resolve(true);
  }

  /** How a pump leaves the socket: a paused socket in data mode still reads into its stream
   * buffer (and so notices the peer closing while idle in the pool); a shared-read one reads on
   * until a chunk waits. */
  pumpSettled(): void {
    this.wake = null;
    if (this.shared && this.chunks.length === 0) this.socket.resume();
    else this.socket.pause();
  }

  private pumpLive(to: Writable, body: BodyScanner | null, onChunk: () => void): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      new LivePump(this, to, body, onChunk, resolve, reject).start();
    });
  }

  /** Bytes read but not yet consumed (past the end of the last message). */
  get buffered(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  /**
   * Idle between messages (a kept-alive connection in a pool): reading goes on so the peer
   * closing is noticed, and any byte that arrives calls `onBytes` instead of being kept, since
   * no request is waiting for it. `unpark` makes the reader normal again.
   */
  park(onBytes: () => void): void {
    const parked = (): boolean => {
      onBytes();
      return false;
    };
    if (this.shared) this.shared.sink = parked;
    else {
      this.socket.removeListener("data", this.onData);
      this.socket.on("data", parked);
    }
    this.parked = parked;
    this.socket.resume();
  }

  unpark(): void {
    const parked = this.parked;
    if (!parked) return;
    this.parked = null;
    if (this.shared) this.shared.sink = this.onSharedData;
    else {
      this.socket.removeListener("data", parked);
      this.socket.on("data", this.onData);
    }
  }

  /** Puts bytes read too far (the start of the next message) back in front. */
  unshift(data: Buffer): void {
    if (data.length > 0) this.chunks.unshift(data);
  }

  /** Hands the socket over (to a pipe): stops listening and returns what was buffered. */
  detach(): Buffer[] {
    if (this.shared) this.shared.sink = null;
    else this.socket.removeListener("data", this.onData);
    this.socket.removeListener("end", this.onFinish);
    this.socket.removeListener("close", this.onFinish);
    this.socket.removeListener("error", this.onFinish);
    return this.chunks.splice(0);
  }

  /** Stops reading the socket for good (whoever closes it drains it): what was buffered is
   * dropped and a pending read() returns null. */
  stop(): void {
    this.detach();
    this.finished = true;
    this.notify();
  }
}

/**
 * One body moved in push mode from a reader's socket into `to` (SocketReader.pump): chunks are
 * written as they arrive, the source pauses while `to` is full, and the reader gets its socket
 * back (its own listener or sink) once the body is done or either side is gone.
 */
class LivePump {
  private settled = false;

  constructor(
    private readonly reader: SocketReader,
    private readonly to: Writable,
    private readonly body: BodyScanner | null,
    private readonly onChunk: () => void,
    private readonly resolve: (ok: boolean) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  start(): void {
    const { reader, to } = this;
    // Swapped first: settling (even while buffered chunks are delivered) swaps back.
    if (reader.shared) reader.shared.sink = this.onSharedPumpData;
    else reader.socket.removeListener("data", reader.onData);
    while (reader.chunks.length > 0 && !this.settled) {
      const chunk = reader.chunks.shift() as Buffer;
      if (!this.deliver(chunk, true) && this.settled) return;
    }
    if (this.settled) return;
    if (this.body?.done || reader.finished) {
      this.onSourceFinish();
      return;
    }
    if (!reader.shared) reader.socket.on("data", this.onPumpData);
    to.on("drain", this.onDrain);
    to.once("close", this.onTargetClose);
    // The reader's own end/close/error handlers set `finished` and call wake().
    reader.wake = this.onSourceFinish;
    if (to.writableNeedDrain) reader.socket.pause();
    else reader.socket.resume();
  }

  private settle(ok: boolean, error?: unknown): void {
    if (this.settled) return;
    this.settled = true;
    const { reader, to } = this;
    if (reader.shared) reader.shared.sink = reader.onSharedData;
    else {
      reader.socket.removeListener("data", this.onPumpData);
      reader.socket.on("data", reader.onData);
    }
    to.removeListener("drain", this.onDrain);
    to.removeListener("close", this.onTargetClose);
    reader.pumpSettled();
    if (error === undefined) this.resolve(ok);
    else this.reject(error);
  }

  /** Writes one chunk; false when the source has to stop (done, or `to` is full). `owned`: the
   * chunk's memory is ours (false: the shared read buffer, only valid until we return). */
  private deliver(data: Buffer, owned: boolean): boolean {
    let chunk = data;
    const { body, to } = this;
    if (body) {
      let used: number;
      try {
        used = body.scan(chunk);
      } catch (error) {
        this.settle(false, error);
        return false;
      }
      if (used < chunk.length) {
        const rest = chunk.subarray(used);
        this.reader.chunks.unshift(owned ? rest : Buffer.from(rest));
        chunk = chunk.subarray(0, used);
      }
    }
    if (to.destroyed || !to.writable) {
      this.settle(false);
      return false;
    }
    let flowing = true;
    if (chunk.length > 0) {
      flowing = owned ? to.write(chunk) : writeShared(to, chunk);
      this.onChunk();
    }
    if (body?.done) {
      this.settle(true);
      return false;
    }
    return flowing;
  }

  private readonly onPumpData = (chunk: Buffer) => {
    if (!this.settled && !this.deliver(chunk, true) && !this.settled) this.reader.socket.pause();
  };

  private readonly onSharedPumpData = (data: Buffer): boolean => {
    const more = this.deliver(data, false);
    return this.settled ? this.reader.chunks.length === 0 : more;
  };

  private readonly onDrain = () => {
    if (!this.settled) this.reader.socket.resume();
  };

  private readonly onTargetClose = () => this.settle(false);

  private readonly onSourceFinish = () => this.settle(this.body === null || this.body.done);
}
