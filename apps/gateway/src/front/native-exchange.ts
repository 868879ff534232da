import { type SpliceAddon, SpliceCount, SpliceEvent, spliceAddon } from "@bytetoll/splice";
import {
  ChunkedScanner,
  type Framing,
  HeadTooLarge,
  headEnd,
  MAX_HEAD_BYTES,
  MalformedMessage,
  parseRequestHead,
  parseResponseHead,
  type RequestHead,
  type ResponseHead,
  requestFraming,
  responseFraming,
  wantsUpgrade,
} from "../base/http-message.ts";
import type { NativeClient, NativeSocket } from "../base/native-socket.ts";
import type { NativeTarget } from "../dial/native-splice.ts";

/** A silent target is given up after this long, as on the Node path. */
export const TARGET_INACTIVITY_MS = 300_000;

/**
 * The bytes of one plain request and its response between a native client and a native target
 * (both bare descriptors, see native-plain.ts): the request head is sent, the response head read
 * and parsed here, and the body moved by the splice relay with a cap on what it reads, so the
 * connections stay open for the next request. Every byte read from or written to the target is
 * added to the target's counts, which metering reads as a tunnel's.
 */

const addon = () => spliceAddon as SpliceAddon;

/** Adds bytes moved outside the relay to the target's counts (SpliceCount), as the relay does. */
function count(target: NativeTarget, index: number, bytes: number): void {
  target.counts[index] = (target.counts[index] as number) + bytes;
}

/** The next bytes of a native socket: empty once the peer closed, null once it failed or was
 * destroyed. */
export function readNative(socket: NativeSocket): Promise<Buffer | null> {
  if (socket.destroyed) return Promise.resolve(null);
  return new Promise((resolve) => {
    const onClose = () => resolve(null);
    socket.once("close", onClose);
    socket.readSome((bytes) => {
      socket.off("close", onClose);
      resolve(bytes);
    });
  });
}

/**
 * Moves bytes between the pair with the splice relay: `toTarget` and `toClient` are written
 * first, then at most `fromTarget` bytes are read from the target and written to the client (-1:
 * until the target closes, whose FIN is passed on); the client is not read. Resolves with how it
 * ended: "done", "closed" (the target closed first), or "failed" (a socket failed, or either was
 * destroyed meanwhile: a balance cut, a revoked credential, shutdown). `onProgress` runs when the
 * relay reports bytes moved (a long body is metered as it goes).
 */
export function relayNative(
  client: NativeClient,
  target: NativeTarget,
  toTarget: Buffer | null,
  toClient: Buffer | null,
  fromTarget: number,
  onProgress: () => void,
): Promise<"done" | "closed" | "failed"> {
  if (client.destroyed || target.destroyed) return Promise.resolve("failed");
  return new Promise((resolve) => {
    let running = true;
    let closed = false;
    const ended = (how: "done" | "closed" | "failed") => {
      running = false;
      client.relayEnded();
      target.relayEnded();
      onProgress();
      resolve(how);
    };
    const limits = new Float64Array([0, fromTarget]);
    const relay = addon().start(
      client.fd,
      target.fd,
      toTarget,
      toClient,
      target.counts,
      (kind, side) => {
        if (kind === SpliceEvent.progress) onProgress();
        else if (kind === SpliceEvent.halfClosed) closed ||= side === 1;
        else ended(kind === SpliceEvent.done ? (closed ? "closed" : "done") : "failed");
      },
      limits,
    );
    const stop = () => {
      if (!running) return;
      addon().stop(relay);
      ended("failed");
    };
    client.relayedBy(stop);
    target.relayedBy(stop);
  });
}

/** Sends `bytes` to one side of the pair: at once when the socket takes them all (almost
 * always), else through the relay, which waits for room. False when the socket failed. */
export async function sendNative(
  client: NativeClient,
  target: NativeTarget,
  to: "client" | "target",
  bytes: Buffer,
): Promise<boolean> {
  const socket = to === "client" ? client : target;
  if (socket.destroyed) return false;
  const sent = addon().writeSome?.(socket.fd, bytes) ?? 0;
  if (typeof sent === "string") return false;
  if (to === "target") count(target, SpliceCount.writtenTarget, sent);
  if (sent === bytes.length) return true;
  const rest = bytes.subarray(sent);
  const how = await relayNative(
    client,
    target,
    to === "target" ? rest : null,
    to === "client" ? rest : null,
    0,
    () => {},
  );
  return how === "done";
}

export interface ReadResponse {
  head: ResponseHead;
  /** The head's bytes as the target sent them. */
  raw: Buffer;
  /** Bytes of the body (or beyond) that came with the head. */
  rest: Buffer;
  framing: Framing;
}

/** Reads the target's next response head (interim 1xx ones are passed to the client first, and
 * `onInterim` bills each: a site that sends them without end is cut when the account runs dry);
 * null when the target closed before a byte of it. Throws MalformedMessage (HeadTooLarge) for a
 * head that cannot be relayed: the caller bills nothing of it. */
export async function readResponseHead(
  client: NativeClient,
  target: NativeTarget,
  method: string,
  onInterim: () => void,
): Promise<ReadResponse | null> {
  let buffer: Buffer = Buffer.alloc(0);
  for (;;) {
    const end = headEnd(buffer);
    if (end === -1) {
      if (buffer.length > MAX_HEAD_BYTES) throw new HeadTooLarge();
      const bytes = await readWithin(target, TARGET_INACTIVITY_MS);
      if (!bytes || bytes.length === 0) {
        if (buffer.length === 0) return null;
        throw new MalformedMessage("connection closed inside a response head");
      }
      count(target, SpliceCount.readTarget, bytes.length);
      buffer = buffer.length === 0 ? bytes : Buffer.concat([buffer, bytes]);
      continue;
    }
    const head = parseResponseHead(buffer, end);
    const framing = responseFraming(head, method);
    const raw = buffer.subarray(0, end);
    if (head.status >= 100 && head.status < 200) {
      // A switch of protocols was not asked for (such requests take the Node path).
      if (head.status === 101)
        throw new MalformedMessage("101 Switching Protocols to a request without Upgrade");
      if (!(await sendNative(client, target, "client", raw))) return null;
      onInterim();
      buffer = buffer.subarray(end);
      continue;
    }
    return { head, raw, rest: buffer.subarray(end), framing };
  }
}

/** `readNative` with a deadline: a socket silent that long is destroyed (null). */
function readWithin(socket: NativeSocket, ms: number): Promise<Buffer | null> {
  const timer = setTimeout(() => socket.destroy(), ms);
  return readNative(socket).finally(() => clearTimeout(timer));
}

/** A body read and framed here: chunked (`scanner`; the relay cannot tell where it ends), or
 * ending with the connection (null), relayed a read at a time so a cut meets a client that is
 * reading (its reset is seen as one, not as the end). "done" (for a chunked body, with how much
 * the target sent past its end: the target is not reused then), or "failed". */
export async function relayRead(
  client: NativeClient,
  target: NativeTarget,
  first: Buffer,
  scanner: ChunkedScanner | null,
  onProgress: () => void,
): Promise<{ how: "done" | "failed"; past: number }> {
  for (let bytes: Buffer | null = first; ; bytes = await readWithin(target, TARGET_INACTIVITY_MS)) {
    if (!bytes) return { how: "failed", past: 0 };
    if (bytes !== first) {
      if (bytes.length === 0) return { how: scanner ? "failed" : "done", past: 0 };
      count(target, SpliceCount.readTarget, bytes.length);
      onProgress();
    }
    const used = scanner ? scanner.scan(bytes) : bytes.length;
    if (used > 0 && !(await sendNative(client, target, "client", bytes.subarray(0, used))))
      return { how: "failed", past: 0 };
    if (scanner?.done) return { how: "done", past: bytes.length - used };
  }
}

/** The request in `bytes` when it is a whole plain request this path serves, with nothing sent
 * after it; null for anything else. */
export function nativePlainRequest(bytes: Buffer): RequestHead | null {
  const end = headEnd(bytes);
  if (end !== bytes.length || bytes.length > MAX_HEAD_BYTES) return null;
  try {
    const head = parseRequestHead(bytes, end);
    const eligible =
      head.method !== "CONNECT" &&
      head.target.startsWith("http://") &&
      requestFraming(head).kind === "none" &&
      !wantsUpgrade(head.headers) &&
      !head.headers.some((h) => h.key === "expect");
    return eligible ? head : null;
  } catch {
    return null;
  }
}

/** The head and body to the client: whether all of it went, and whether the target can carry
 * another request (nothing arrived past the body). */
export async function relayResponseBody(
  client: NativeClient,
  target: NativeTarget,
  response: ReadResponse,
  clientHead: Buffer,
  poll: () => void,
): Promise<{ whole: boolean; reusable: boolean }> {
  const { framing, rest } = response;
  if (framing.kind === "chunked" || framing.kind === "close") {
    if (!(await sendNative(client, target, "client", clientHead))) return { whole: false, reusable: false };
    const scanner = framing.kind === "chunked" ? new ChunkedScanner() : null;
    const { how, past } = await relayRead(client, target, rest, scanner, poll);
    return { whole: how === "done", reusable: scanner !== null && past === 0 };
  }
  const length = framing.kind === "length" ? framing.length : 0;
  const bodyPart = rest.subarray(0, length);
  const how = await relayNative(
    client,
    target,
    null,
    Buffer.concat([clientHead, bodyPart]),
    length - bodyPart.length,
    poll,
  );
  return { whole: how === "done", reusable: rest.length === bodyPart.length };
}
