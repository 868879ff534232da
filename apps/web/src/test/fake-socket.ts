type Listener = (...args: unknown[]) => void;

/**
 * The part of a socket.io-client Socket that RealtimeConnection uses, driven by the test: it
 * records joined channels and lets the test connect it and deliver server events.
 */
export class FakeSocket {
  connected = false;
  active = false;
  readonly joined: string[] = [];
  /** Ack the server gives to `subscribe`. */
  subscribeAck: { ok: boolean; message?: string } = { ok: true };
  /** While true, `subscribe` acks wait for `releaseAcks` (a server still joining the room). */
  holdAcks = false;
  private readonly heldAcks: Array<() => void> = [];
  private readonly listeners = new Map<string, Set<Listener>>();
  readonly io = { on: (event: string, listener: Listener) => this.on(event, listener) };

  on(event: string, listener: Listener): this {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return this;
  }

  off(event: string, listener: Listener): this {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  emit(event: string, payload: { channel: string }, ack?: (reply: unknown) => void): this {
    if (event === "subscribe") {
      const reply = this.subscribeAck;
      const join = () => {
        if (reply.ok) this.joined.push(payload.channel);
        ack?.(reply);
      };
      if (this.holdAcks) this.heldAcks.push(join);
      else join();
    }
    if (event === "unsubscribe") this.joined.splice(this.joined.indexOf(payload.channel), 1);
    return this;
  }

  connect(): this {
    this.active = true;
    return this;
  }

  disconnect(): this {
    this.active = false;
    this.connected = false;
    return this;
  }

  /** The server finishes the joins it held. */
  releaseAcks(): void {
    this.holdAcks = false;
    for (const join of this.heldAcks.splice(0)) join();
  }

  /** The server accepted the handshake. */
  acceptConnection(): void {
    this.connected = true;
    this.deliver("connect");
  }

  /** The server sent `event` to a room this socket is in. */
  deliver(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
}

/** The sockets the mocked `io` below made, oldest first; a test file clears it before each test. */
export const createdSockets: FakeSocket[] = [];

/** Stands in for socket.io-client's `io` in a test file that says
 * `vi.mock("socket.io-client", () => import("…/test/fake-socket.ts"))`. */
export function io(): FakeSocket {
  const socket = new FakeSocket();
  createdSockets.push(socket);
  return socket;
}

/** The connection the page opened last. */
export const lastSocket = (): FakeSocket => createdSockets.at(-1) as FakeSocket;
