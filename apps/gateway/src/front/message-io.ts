import type { Duplex } from "node:stream";
import {
  ChunkedScanner,
  type Framing,
  headEnd,
  LengthScanner,
  MalformedMessage,
} from "../base/http-message.ts";
import type { SocketReader } from "../base/socket-reader.ts";
import type { Flow } from "../relay/meter.ts";

/** HTTP messages read from and relayed between sockets, as raw bytes. */

/** Reads a message head; null when the peer closed before sending a single byte. `onBytes`
 * runs once bytes of the head have arrived. */
export async function readHead(
  reader: SocketReader,
  onBytes?: () => void,
): Promise<{ buffer: Buffer; end: number } | null> {
  let buffer: Buffer = Buffer.alloc(0);
  for (;;) {
    const chunk = await reader.read();
    if (!chunk) {
      if (buffer.length === 0) return null;
      throw new MalformedMessage("connection closed inside a message head");
    }
    onBytes?.();
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    // Empty lines before a request line are allowed (RFC 9112 §2.2).
    while (buffer.length >= 2 && buffer[0] === 0x0d && buffer[1] === 0x0a) buffer = buffer.subarray(2);
    const end = headEnd(buffer);
    if (end !== -1) {
      reader.unshift(buffer.subarray(end));
      return { buffer, end };
    }
  }
}

/** Copies one message body from `from` to `to` as raw bytes, exactly as framed; resolves false
 * when either side went away first, rejects with MalformedMessage on a broken chunked body. */
export async function relayBody(
  from: SocketReader,
  to: Duplex,
  framing: Framing,
  flow: Flow,
): Promise<boolean> {
  if (framing.kind === "none") return true;
  const body =
    framing.kind === "length"
      ? new LengthScanner(framing.length)
      : framing.kind === "chunked"
        ? new ChunkedScanner()
        : null;
  return from.pump(to, body, () => flow.poll());
}
