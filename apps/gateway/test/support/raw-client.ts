import net from "node:net";
import { Duplex } from "node:stream";
import tls from "node:tls";
import fc from "fast-check";
import { vi } from "vitest";
import type { Gateway } from "../../src/gateway.ts";

/** A client connection from a chosen loopback address (Linux routes all of 127/8 to lo), on the
 * plain listener or inside TLS, with everything it has received so far. */
export interface RawClient {
  /** The application stream: the TCP socket, or the TLS socket over it. */
  socket: net.Socket;
  /** The TCP socket underneath (what a reset is sent on). */
  tcp: net.Socket;
  state: { received: string; closed: boolean; error: string | null };
}

/** A stream in front of a TCP socket, for TLS to run over: TLS over the TCP socket itself takes
 * its handle, and resetting that socket under a live TLS socket crashes Node (the test's own
 * client, not the gateway). */
function bridgeTo(tcp: net.Socket): Duplex {
  const bridge = new Duplex({
    read: () => {
      tcp.resume();
    },
    write: (chunk, _encoding, done) => {
      if (tcp.destroyed) done();
      else tcp.write(chunk, () => done());
    },
    final: (done) => {
      tcp.end();
      done();
    },
    destroy: (error, done) => {
      tcp.destroy();
      done(error);
    },
  });
  tcp.on("data", (chunk: Buffer) => {
    if (!bridge.push(chunk)) tcp.pause();
  });
  tcp.on("end", () => bridge.push(null));
  tcp.on("close", () => bridge.destroy());
  return bridge;
}

/** Connects and resolves once the connection is up (for `secure`: once TLS is set up, unless
 * `handshake` is false, which leaves a bare TCP connection to the TLS port). */
export async function connectFrom(
  port: number,
  localAddress: string,
  options: { secure?: boolean; handshake?: boolean } = {},
): Promise<RawClient> {
  const tcp = net.connect({ port, host: "127.0.0.1", localAddress });
  const state = { received: "", closed: false, error: null as string | null };
  tcp.on("error", (error: NodeJS.ErrnoException) => {
    state.error = error.code ?? error.message;
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once("connect", resolve);
    tcp.once("error", reject);
  });
  let socket = tcp;
  if (options.secure && options.handshake !== false) {
    socket = tls.connect({ socket: bridgeTo(tcp), rejectUnauthorized: false });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      state.error = error.code ?? error.message;
    });
    await new Promise<void>((resolve, reject) => {
      socket.once("secureConnect", resolve);
      socket.once("error", reject);
    });
  }
  socket.on("data", (chunk: Buffer) => {
    state.received += chunk.toString("latin1");
  });
  socket.on("close", () => {
    state.closed = true;
  });
  return { socket, tcp, state };
}

/** Ends the connection with a TCP reset (SO_LINGER 0), as a client that vanishes does. */
export function reset(client: RawClient): void {
  if (!client.tcp.destroyed) client.tcp.resetAndDestroy();
  client.socket.destroy();
}

/** The gateway's `bytetoll_gateway_open_connections`, both listeners together. */
export async function openConnections(gateway: Gateway): Promise<number> {
  const gauge = gateway.metricsRegistry.getSingleMetric("bytetoll_gateway_open_connections");
  const values = (await gauge?.get())?.values ?? [];
  return values.reduce((sum, v) => sum + v.value, 0);
}

/** Waits (bounded) for a condition reached asynchronously, checking every 10 ms. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: ms, interval: 10 },
  );
}

export interface ConverseOptions {
  /** End the client's side after the last part (default true). */
  end?: boolean;
  /** Enough was seen: the connection is closed by the client and the result is not `closed`. */
  until?: (text: string) => boolean;
  ms?: number;
}

/** What arrives on a connection to `port` that sends `parts` one write (and one turn of the loop) apart,
 * then optionally ends its side; resolves once the gateway closed it or `until` says enough. */
export function converseWith(
  port: number,
  parts: Buffer[],
  { end = true, until = (_text: string): boolean => false, ms = 3_000 }: ConverseOptions = {},
): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1", noDelay: true });
    let text = "";
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    const timer = setTimeout(
      () => reject(new Error(`still open after ${ms} ms: ${JSON.stringify(text)}`)),
      ms,
    );
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (until(text)) finish(false);
    });
    socket.on("close", () => finish(true));
    socket.on("connect", async () => {
      for (const part of parts) {
        // Each piece handed to the kernel (Nagle off: its own segment) before the next is written.
        await new Promise<void>((written) => socket.write(part, () => setImmediate(written)));
      }
      if (end) socket.end();
    });
  });
}

/** What an untrusted peer may send a parser: any bytes (up to 96), or up to `maxParts` of
 * `fragments` joined, which reach the parser's corners far more often than random bytes do. */
export function untrustedBytes(fragments: readonly string[], maxParts: number): fc.Arbitrary<Buffer> {
  return fc.oneof(
    fc.uint8Array({ maxLength: 96 }).map((array) => Buffer.from(array)),
    fc
      .array(fc.constantFrom(...fragments), { maxLength: maxParts })
      .map((parts) => Buffer.from(parts.join(""), "latin1")),
  );
}

/** `bytes` cut at each of `cuts` inside it (any order, repeats and out-of-range ones ignored). */
export function splitAt(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.filter((cut) => cut > 0 && cut < bytes.length))].sort((a, b) => a - b);
  return [0, ...points].map((at, i) => bytes.subarray(at, points[i] ?? bytes.length));
}

/** A site on loopback that answers each chunk with "echo:" and the chunk, and ends with its client. */
export async function startEchoOrigin(): Promise<net.Server> {
  const origin = net.createServer((socket) => {
    socket.on("data", (chunk: Buffer) => socket.write(`echo:${chunk.toString("latin1")}`));
    socket.on("end", () => socket.end());
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  return origin;
}
