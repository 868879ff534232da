import type net from "node:net";

/** Accepted sockets that have TCP_NODELAY from their listening socket (Node does not know it:
 * its own `setNoDelay(true)` would set it again). */
const inherited = new WeakSet<net.Socket>();

/** `socket` was accepted from a listener with TCP_NODELAY set, so it has it too. */
export function noDelayInheritedBy(socket: net.Socket): void {
  inherited.add(socket);
}

/** Turns Nagle's algorithm off on `socket`, unless it already is (inherited from its listener):
 * one `setsockopt` fewer per connection. */
export function setNoDelay(socket: net.Socket): void {
  if (!inherited.has(socket)) socket.setNoDelay(true);
}
