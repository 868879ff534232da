import net from "node:net";
import type { Duplex } from "node:stream";
import type { SpliceAddon } from "@bytetoll/splice";

/** Any listener: each event's own arguments are its emitter's to match. */
type Listener = (...args: never[]) => void;
type Call = (...args: unknown[]) => void;

/** Listeners by event name, in the order they were added. */
type ListenerTable = Record<string, Listener[] | undefined>;

/**
 * A TCP connection held as a bare descriptor, with no Node socket, handle or stream: only the
 * splice relay reads and writes it. It has what the steps ask of a socket — its peer, `destroy()`,
 * `end()`, and the `error` and `close` events — so admission, the connection caps, metering and
 * outcomes treat it as any socket. The descriptor is closed by `destroy()`.
 *
 * Its events are those of an EventEmitter (`on`, `once`, `off`, `emit`) without one: a short
 * tunnel makes two of these and hangs half a dozen listeners on them, and Node's emitter (its
 * set-up, a wrapper per `once`) was a measurable part of the tunnel's JavaScript. `close` and
 * `error` are emitted at most once each, so `once` for them is `on`; an error emitted with no
 * listener is dropped (whoever relays the socket hears its errors).
 */
export class NativeSocket {
  destroyed = false;
  private listeners: ListenerTable | null = null;
  /** Waiting for bytes (readSome), to cancel if it is destroyed or handed over meanwhile. */
  private reading = false;
  /** Stops the relay while it runs; null before it starts and once it ended. */
  private stopRelay: (() => void) | null = null;

  constructor(
    protected readonly addon: SpliceAddon,
    readonly fd: number,
    readonly remoteAddress: string,
    readonly remotePort: number,
  ) {}

  on(event: string, listener: Listener): this {
    if (!this.listeners) this.listeners = {};
    const table = this.listeners;
    const listeners = table[event];
    if (listeners) listeners.push(listener);
    else table[event] = [listener];
    return this;
  }

  addListener(event: string, listener: Listener): this {
    return this.on(event, listener);
  }

  once(event: string, listener: Listener): this {
    if (event === "close" || event === "error") return this.on(event, listener);
    const once: Call & { listener?: Listener } = (...args) => {
      this.off(event, once);
      (listener as Call)(...args);
    };
    once.listener = listener;
    return this.on(event, once);
  }

  off(event: string, listener: Listener): this {
    const listeners = this.listeners?.[event];
    if (!listeners) return this;
    const index = listeners.findLastIndex(
      (added) => added === listener || (added as { listener?: Listener }).listener === listener,
    );
    if (index !== -1) listeners.splice(index, 1);
    return this;
  }

  removeListener(event: string, listener: Listener): this {
    return this.off(event, listener);
  }

  /** Calls the event's listeners (those added while they run wait for the next emit); false when
   * it had none. */
  emit(event: string, ...args: unknown[]): boolean {
    const listeners = this.listeners?.[event];
    if (!listeners || listeners.length === 0) return false;
    if (listeners.length === 1) (listeners[0] as Call)(...args);
    else for (const listener of [...listeners]) (listener as Call)(...args);
    return true;
  }

  get remoteFamily(): "IPv4" | "IPv6" {
    return this.remoteAddress.includes(":") ? "IPv6" : "IPv4";
  }

  /** While the relay runs, it shuts this side down for writing when the other side finished.
   * Once the relay stopped, nothing can read or write the descriptor again: it is closed at
   * once, which tells the peer (a Node socket would send its FIN and wait out the linger). */
  end(): this {
    if (!this.stopRelay) this.destroy();
    return this;
  }

  /** Waits for the next bytes (up to 8 KiB): `onBytes` gets them (empty: the peer closed), or
   * null after an error; not called once it was destroyed (or a client handed over). One wait
   * at a time, never while a relay runs. */
  readSome(onBytes: (bytes: Buffer | null) => void): void {
    bytesAwaitedOf(this.addon).set(this.fd, (bytes) => {
      this.reading = false;
      onBytes(bytes);
    });
    this.addon.readSome(this.fd);
    this.reading = true;
  }

  /** Stops waiting for bytes; `readSome`'s callback is not called. */
  cancelRead(): void {
    if (!this.reading) return;
    this.reading = false;
    this.addon.cancelRead(this.fd);
    bytesAwaitedOf(this.addon).delete(this.fd);
  }

  /** Relayed by `stop` from now on (called once, when its relay starts). */
  relayedBy(stop: () => void): void {
    this.stopRelay = stop;
  }

  /** The relay ended or was stopped. */
  relayEnded(): void {
    this.stopRelay = null;
  }

  /** Closed with a reset rather than a FIN (a cut tunnel must not look finished). */
  resetAndDestroy(): this {
    if (!this.destroyed) this.addon.resetOnClose?.(this.fd);
    return this.destroy();
  }

  /** Stops its relay, closes the descriptor; `error` (when given) and `close` follow. */
  destroy(error?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.cancelRead();
    this.stopRelay?.();
    this.addon.closeDescriptor(this.fd);
    process.nextTick(() => {
      if (error) this.emit("error", error);
      this.emit("close", error !== undefined);
      this.afterClose();
    });
    return this;
  }

  /** Once `close` was emitted (its listeners have read what they need). */
  protected afterClose(): void {}
}

/**
 * A client connection accepted by the native front door. A CONNECT it sent whole in its first
 * bytes is admitted, dialled and spliced without a Node socket ever being made for it; for
 * anything else (another request, SOCKS5 on the HTTP port, a refusal to write, a relay in
 * JavaScript) it is handed over to a Node socket made from its descriptor, and from then on
 * forwards to that socket: `destroy()` destroys it, its `close` and `error` are this one's.
 */
export class NativeClient extends NativeSocket {
  /** Told the Node socket when it is handed over (the connection caps count that socket as this
   * connection from then on); one function for every client, set by whoever counts them. */
  onHandOver: ((socket: net.Socket, client: NativeClient) => void) | null = null;
  /** The Node socket it was handed over to (null: still native). */
  socket: net.Socket | null = null;

  /** Sends a handshake's answer (a few bytes, before any relay): true when all of it went; on a
   * failed or short send the connection is destroyed with the error. */
  write(bytes: Buffer): boolean {
    if (this.socket) return this.socket.write(bytes);
    if (this.destroyed) return false;
    const sent = (this.addon.writeSome as NonNullable<SpliceAddon["writeSome"]>)(this.fd, bytes);
    if (sent === bytes.length) return true;
    const code = typeof sent === "string" ? sent : "ESHORTWRITE";
    this.destroy(Object.assign(new Error(`write ${code}`), { code, syscall: "write" }));
    return false;
  }

  /** A Node socket on its descriptor, with `buffered` as the first bytes it reads; null when it
   * was destroyed already. Called once; later calls return the same socket. */
  handOver(buffered: Buffer[] = []): net.Socket | null {
    if (this.socket || this.destroyed) return this.socket;
    this.cancelRead();
    const socket = new net.Socket({ fd: this.fd, readable: true, writable: true });
    for (const chunk of buffered.toReversed()) socket.unshift(chunk);
    this.socket = socket;
    this.onHandOver?.(socket, this);
    socket.on("error", (error) => this.emit("error", error));
    socket.once("close", (hadError) => {
      this.destroyed = true;
      this.emit("close", hadError);
    });
    return socket;
  }

  override end(): this {
    if (this.socket) {
      this.socket.end();
      return this;
    }
    return super.end();
  }

  override resetAndDestroy(): this {
    if (this.socket) {
      if (!this.socket.destroyed) this.socket.resetAndDestroy();
      return this;
    }
    return super.resetAndDestroy();
  }

  override destroy(error?: Error): this {
    if (this.socket) {
      this.socket.destroy(error);
      return this;
    }
    this.cancelRead();
    return super.destroy(error);
  }
}

/** Per addon (one per thread), who waits for bytes of which descriptor: the addon reports every
 * such read to one handler, with no object per wait. */
const waitingByAddon = new WeakMap<SpliceAddon, Map<number, (bytes: Buffer | null) => void>>();

function bytesAwaitedOf(addon: SpliceAddon): Map<number, (bytes: Buffer | null) => void> {
  let waiting = waitingByAddon.get(addon);
  if (!waiting) {
    const created = new Map<number, (bytes: Buffer | null) => void>();
    addon.setReadHandler((fd, bytes) => {
      const onBytes = created.get(fd);
      created.delete(fd);
      onBytes?.(bytes);
    });
    waitingByAddon.set(addon, created);
    waiting = created;
  }
  return waiting;
}

/**
 * A handshake's reads of a native client (SOCKS5 before its tunnel), as a SocketReader gives
 * them: `read()` resolves the next bytes, or null once the client closed; bytes read past a
 * message are put back (`unshift`) and what is left when the tunnel starts is its first write
 * (`detach`).
 */
export class NativeClientReader {
  private readonly held: Buffer[];
  private finished = false;
  private wake: ((bytes: Buffer | null) => void) | null = null;

  constructor(
    private readonly client: NativeClient,
    first: Buffer | null,
  ) {
    this.held = first && first.length > 0 ? [first] : [];
    client.once("close", () => this.finish());
  }

  read(): Promise<Buffer | null> {
    const chunk = this.held.shift();
    if (chunk) return Promise.resolve(chunk);
    if (this.finished || this.client.destroyed) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.wake = resolve;
      this.client.readSome((bytes) => {
        this.wake = null;
        if (bytes && bytes.length > 0) resolve(bytes);
        else this.finish(resolve);
      });
    });
  }

  unshift(bytes: Buffer): void {
    this.held.unshift(bytes);
  }

  detach(): Buffer[] {
    return this.held.splice(0);
  }

  private finish(resolve = this.wake): void {
    this.finished = true;
    this.wake = null;
    resolve?.(null);
  }
}

/** A client connection as the steps after a front-end see it: a Node stream (TLS on 8443, a
 * socket from the Node listener) or one the native front door accepted. */
export type ClientSocket = Duplex | NativeClient;
