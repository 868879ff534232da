import type net from "node:net";
import { SpliceCount } from "@bytetoll/splice";

/* The Node sockets of a natively relayed tunnel: what their counters show, how destroy() stops
 * the relay, and how they close when it ends. */

/** The relay ended (`done`) or failed on one side: both sockets close, the failed one with an
 * error carrying the errno code. */
export function closeAfterRelay(
  done: boolean,
  side: number,
  code: string | undefined,
  clientSocket: { destroy(error?: Error): unknown },
  targetSocket: { destroy(error?: Error): unknown },
): void {
  if (done) {
    clientSocket.destroy();
    targetSocket.destroy();
    return;
  }
  const error = Object.assign(new Error(`${code} on a spliced tunnel`), { code });
  if (side === 0) {
    clientSocket.destroy(error);
    targetSocket.destroy();
  } else {
    targetSocket.destroy(error);
    clientSocket.destroy();
  }
}

/** A Node target socket's counters from now on include what the relay moves (the counts the
 * relay keeps, returned). */
export function countedByRelay(socket: net.Socket): Float64Array {
  const counts = new Float64Array(4);
  const readBefore = socket.bytesRead;
  const writtenBefore = socket.bytesWritten;
  Object.defineProperty(socket, "bytesRead", {
    get: () => readBefore + (counts[SpliceCount.readTarget] as number),
  });
  Object.defineProperty(socket, "bytesWritten", {
    get: () => writtenBefore + (counts[SpliceCount.writtenTarget] as number),
  });
  return counts;
}

/** `destroy()` of a relayed Node socket, from anywhere, stops the relay first. */
export function stopOnDestroy(socket: net.Socket, stop: () => void): void {
  const destroy = socket._destroy.bind(socket);
  socket._destroy = (error, callback) => {
    stop();
    destroy(error, callback);
  };
}
