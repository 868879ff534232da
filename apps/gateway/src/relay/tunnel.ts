import type net from "node:net";
import { type Duplex, Writable } from "node:stream";
import { LengthScanner } from "../base/http-message.ts";
import { NativeClient } from "../base/native-socket.ts";
import type { SocketReader } from "../base/socket-reader.ts";
import { NativeTarget, spliceNatively } from "../dial/native-splice.ts";
import type { TunnelContext } from "./tunnel-context.ts";

/** Once one direction has finished (FIN) or one side is gone, the tunnel is cut when no byte
 * has moved either way for this long: a peer that never closes its half cannot hold it open. */
const HALF_CLOSE_LINGER_MS = 10_000;

/** Once the client is gone, what the target has still sent is read (billed, as the target
 * counts it) and dropped, up to about what a socket's read buffer would have taken in anyway: a
 * TLS close_notify is not left unread, a long download is not read on for nobody. */
const READ_AFTER_CLIENT_GONE_BYTES = 64 * 1024;

/** Bytes the target socket has moved either way (with the splice relay, its counters include
 * what the relay moved). */
function targetBytes(target: net.Socket | NativeTarget): number {
  return target.bytesRead + target.bytesWritten;
}

/**
 * Joins the tunnel's client and `target` byte for byte (CONNECT, or a 101 protocol switch) until
 * both directions have finished or a side fails, then finishes its flow (opened already). A FIN
 * travels through: the other direction keeps flowing. The flow reads the target socket's
 * counters at least once per read each way, so a long-lived tunnel is billed as it goes and cut
 * as soon as its account runs dry.
 *
 * Two relays, the same bytes and counts: between two plain TCP sockets the splice addon moves
 * the bytes inside the kernel (native-splice.ts; GATEWAY_SPLICE); otherwise (TLS on either side,
 * the addon absent or switched off) JavaScript copies them: the target's side by its reader's
 * pump (read into the shared buffer), the client's side piped. `answer` (the front-end's reply,
 * if any) goes to the client first. A NativeTarget (dialled by the addon for a client that could
 * be spliced) has no reader: if the client can no longer be spliced, both are closed.
 */
export function splice(
  tunnel: TunnelContext,
  clientBuffered: Buffer[],
  answer: Buffer | null,
  target: net.Socket | NativeTarget,
  targetReader: SocketReader | null,
  onDone: () => void,
): void {
  const { client, flow } = tunnel;
  if (!flow) throw new Error("a tunnel is relayed once its flow is open");
  let closed = 0;
  let linger: NodeJS.Timeout | null = null;
  /** Cuts the tunnel once nothing moved for a whole linger period. */
  const startLinger = () => {
    if (linger) return;
    let seen = targetBytes(target);
    linger = setInterval(() => {
      const now = targetBytes(target);
      if (now !== seen) {
        seen = now;
        return;
      }
      client.destroy();
      target.destroy();
    }, HALF_CLOSE_LINGER_MS).unref();
  };
  const onClosed = (other: { end(): unknown }) => () => {
    closed += 1;
    if (closed === 2) {
      if (linger) clearInterval(linger);
      flow.finish();
      onDone();
      return;
    }
    other.end();
    startLinger();
  };
  target.on("close", onClosed(client));
  client.on("close", onClosed(target));
  target.on("error", () => client.destroy());
  client.on("error", () => target.destroy());
  const poll = () => flow.poll();

  if (
    spliceNatively(client, clientBuffered, answer, target, targetReader, {
      onProgress: poll,
      onHalfClosed: startLinger,
    })
  ) {
    flow.poll();
    return;
  }
  if (target instanceof NativeTarget || !targetReader) {
    // Only a client that went away (or ended) between the dial and now cannot be spliced.
    client.destroy();
    target.destroy();
    return;
  }
  // A native client relayed in JavaScript (the target is not a plain TCP socket) gets a Node socket.
  const clientStream = client instanceof NativeClient ? client.handOver() : client;
  if (!clientStream) {
    target.destroy();
    return;
  }
  if (answer) clientStream.write(answer);
  pipeInJavaScript(clientStream, clientBuffered, target, targetReader, poll, startLinger);
}

/** The JavaScript relay: the client's side piped, the target's side by its reader's pump. */
function pipeInJavaScript(
  client: Duplex,
  clientBuffered: Buffer[],
  target: net.Socket,
  targetReader: SocketReader,
  poll: () => void,
  startLinger: () => void,
): void {
  // A FIN from one side ends the other side's writing only: the reverse direction stays open.
  client.allowHalfOpen = true;
  target.allowHalfOpen = true;
  client.once("end", startLinger);
  target.once("end", startLinger);
  for (const chunk of clientBuffered) target.write(chunk);
  client.pipe(target);
  // Registered after the pipe so each poll already sees the chunk just written.
  client.on("data", poll);
  if (clientBuffered.length > 0) poll();
  // As a pipe would: the target's end becomes the client's.
  targetReader.pump(client, null, poll).then((finished) => {
    if (finished) client.end();
    else {
      const drop = new Writable({ write: (_chunk, _encoding, done) => done() });
      targetReader.pump(drop, new LengthScanner(READ_AFTER_CLIENT_GONE_BYTES), poll);
    }
  });
}
