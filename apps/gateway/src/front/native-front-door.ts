import { Refusal, refuseConnection, sendRawRefusal } from "@bytetoll/egress";
import { spliceAddon } from "@bytetoll/splice";
import { headEnd, MalformedMessage, parseRequestHead, type RequestHead } from "../base/http-message.ts";
import type { NativeClient } from "../base/native-socket.ts";
import type { SessionDeps } from "../relay/session-deps.ts";
import { connectTunnel, malformedRefusal, serveClient } from "./client-session.ts";
import { headTimeoutRefusal } from "./head-deadline.ts";
import { nativePlainRequest } from "./native-exchange.ts";
import { NativePlainSession } from "./native-plain.ts";
import { serveNativeSocksClient } from "./socks-session.ts";
import { SOCKS_VERSION } from "./socks5.ts";

const CONNECT = Buffer.from("CONNECT ", "latin1");

/** Serves one natively accepted client from its first bytes (null: none had arrived at accept,
 * so they are awaited, within the head deadline counted from accept). */
export function serveNativeClient(client: NativeClient, head: Buffer | null, deps: SessionDeps): void {
  if (head) {
    serveFirstBytes(client, head, deps, Date.now());
    return;
  }
  const acceptedAt = Date.now();
  const deadline = setTimeout(() => {
    const socket = client.handOver();
    if (!socket) return;
    deps.metrics.refusals.labels("request_timeout").inc();
    refuseConnection(socket, headTimeoutRefusal(deps.headTimeoutMs));
  }, deps.headTimeoutMs);
  client.once("close", () => clearTimeout(deadline));
  client.readSome((bytes) => {
    clearTimeout(deadline);
    if (bytes && bytes.length > 0) serveFirstBytes(client, bytes, deps, acceptedAt);
    else client.destroy();
  });
}

function serveFirstBytes(client: NativeClient, bytes: Buffer, deps: SessionDeps, acceptedAt: number): void {
  // A SOCKS5 greeting on this port is served as on the SOCKS5 port, on the descriptor too.
  if (bytes[0] === SOCKS_VERSION && spliceAddon?.writeSome) {
    serveNativeSocksClient(client, bytes, deps);
    return;
  }
  const request = wholeConnect(bytes);
  const plain = request || !spliceAddon?.writeSome ? null : nativePlainRequest(bytes);
  if (plain) {
    new NativePlainSession(client, deps).start(plain);
    return;
  }
  if (!request) {
    const socket = client.handOver([bytes]);
    if (socket) serveClient(socket, deps, { acceptedAt });
    return;
  }
  const past = bytes.subarray(request.end);
  const leftover = { detach: () => (past.length > 0 ? [past] : []) };
  connectTunnel(client, request.head, leftover, deps).catch((error: unknown) => refuse(client, error, deps));
}

/** The CONNECT request in `bytes` when its head is whole and well formed; null for anything else
 * (another method, SOCKS5 or TLS on this port, a head still arriving, a malformed one), which the
 * HTTP session reads and answers as it always does. */
function wholeConnect(bytes: Buffer): { head: RequestHead; end: number } | null {
  if (bytes.length < CONNECT.length || bytes.compare(CONNECT, 0, CONNECT.length, 0, CONNECT.length) !== 0)
    return null;
  try {
    const end = headEnd(bytes);
    return end === -1 ? null : { head: parseRequestHead(bytes, end), end };
  } catch {
    return null;
  }
}

/** A tunnel that failed before its relay: a refusal is written on a Node socket made for it (the
 * connection then closes, as after any refused CONNECT); anything else is logged and cut. */
function refuse(client: NativeClient, error: unknown, deps: SessionDeps): void {
  const refusal = error instanceof MalformedMessage ? malformedRefusal(error) : error;
  if (!(refusal instanceof Refusal)) {
    deps.logger.error({ err: error }, "client connection failed");
    client.destroy();
    return;
  }
  deps.metrics.refusals.labels(refusal.code).inc();
  const socket = client.handOver();
  if (socket) sendRawRefusal(socket, refusal, true);
}
