import type { Duplex } from "node:stream";

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
