import type net from "node:net";
import type { Duplex } from "node:stream";
import type { Flow } from "./meter.ts";

/** A side that finished cleanly gets `end()` on the other (pending bytes still flow); if that
 * side never closes on its own it is cut after this long. */
const HALF_CLOSE_LINGER_MS = 10_000;

/**
 * Joins client and target byte for byte (CONNECT, or a 101 protocol switch) until both sides
 * are closed. The flow reads the target socket's counters on every chunk in either direction,
 * so a long-lived tunnel is billed as it goes and cut as soon as its account runs dry.
 */
export function splice(
  client: Duplex,
  clientBuffered: Buffer[],
  target: net.Socket,
  targetBuffered: Buffer[],
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
  for (const chunk of targetBuffered) client.write(chunk);
  target.pipe(client);
  client.pipe(target);
  // Registered after the pipes so each poll already sees the chunk just written.
  target.on("data", () => flow.poll());
  client.on("data", () => flow.poll());
  if (clientBuffered.length > 0 || targetBuffered.length > 0) flow.poll();
}
