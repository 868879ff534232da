import type net from "node:net";
import { type Duplex, Writable } from "node:stream";
import { LengthScanner } from "./http-message.ts";
import type { Flow } from "./meter.ts";
import type { SocketReader } from "./socket-reader.ts";

/** A side that finished cleanly gets `end()` on the other (pending bytes still flow); if that
 * side never closes on its own it is cut after this long. */
const HALF_CLOSE_LINGER_MS = 10_000;

/** Once the client is gone, what the target has still sent is read (billed, as the target
 * counts it) and dropped, up to about what a socket's read buffer would have taken in anyway: a
 * TLS close_notify is not left unread, a long download is not read on for nobody. */
const READ_AFTER_CLIENT_GONE_BYTES = 64 * 1024;

/**
 * Joins client and target byte for byte (CONNECT, or a 101 protocol switch) until both sides
 * are closed. The flow reads the target socket's counters on every chunk in either direction,
 * so a long-lived tunnel is billed as it goes and cut as soon as its account runs dry. The
 * target's side is copied by its reader's pump (the bulk direction of downloads, read into the
 * shared buffer); the client's side is piped.
 */
export function splice(
  client: Duplex,
  clientBuffered: Buffer[],
  target: net.Socket,
  targetReader: SocketReader,
  flow: Flow,
  onDone: () => void,
): void {
  let closed = 0;
  const onClosed = (other: Duplex) => () => {
    closed += 1;
    if (closed === 2) {
      flow.finish();
      onDone();
      return;
    }
    other.end();
    setTimeout(() => other.destroy(), HALF_CLOSE_LINGER_MS).unref();
  };
  target.on("close", onClosed(client));
  client.on("close", onClosed(target));
  target.on("error", () => client.destroy());
  client.on("error", () => target.destroy());
  for (const chunk of clientBuffered) target.write(chunk);
  client.pipe(target);
  // Registered after the pipe so each poll already sees the chunk just written.
  client.on("data", () => flow.poll());
  if (clientBuffered.length > 0) flow.poll();
  // As a pipe would: the target's end becomes the client's.
  const poll = () => flow.poll();
  targetReader.pump(client, null, poll).then((finished) => {
    if (finished) client.end();
    else {
      const drop = new Writable({ write: (_chunk, _encoding, done) => done() });
      targetReader.pump(drop, new LengthScanner(READ_AFTER_CLIENT_GONE_BYTES), poll);
    }
  });
}
