import type { Duplex } from "node:stream";

/** A write that fails because the peer is gone (it reset the connection, or closed it and then
 * reset the bytes that kept coming). */
const PEER_GONE = new Set(["EPIPE", "ECONNRESET"]);

type WriteCallback = (error?: Error | null) => void;
interface WritableHooks {
  _write(chunk: unknown, encoding: BufferEncoding, callback: WriteCallback): void;
  _writev?(chunks: Array<{ chunk: unknown; encoding: BufferEncoding }>, callback: WriteCallback): void;
}

const tolerant = new WeakSet<Duplex>();

/**
 * Makes a target socket discard what is written to it once the target is gone, instead of
 * destroying the socket. A site may answer an upload (a 401 with `Connection: close`) and close
 * before reading the body; the body bytes still on the way make its kernel reset the connection,
 * and the next write fails. Node destroys a socket whose write failed, dropping the answer that
 * already sits in the socket's receive buffer, unread. Kept open, the socket is read to its end:
 * the answer reaches the client, and a target that sent none is still seen closing. Bytes
 * discarded were never sent, so never billed (billing counts what the socket wrote).
 */
export function discardWritesOnceTargetGone(socket: Duplex): void {
  if (tolerant.has(socket)) return;
  tolerant.add(socket);
  const hooks = socket as unknown as WritableHooks;
  let gone = false;
  const settle =
    (callback: WriteCallback): WriteCallback =>
    (error) => {
      const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
      if (!(code && PEER_GONE.has(code))) return callback(error);
      gone = true;
      callback();
    };
  const write = hooks._write;
  hooks._write = (chunk, encoding, callback) => {
    if (gone) callback();
    else write.call(socket, chunk, encoding, settle(callback));
  };
  const writev = hooks._writev;
  if (writev)
    hooks._writev = (chunks, callback) => {
      if (gone) callback();
      else writev.call(socket, chunks, settle(callback));
    };
}
