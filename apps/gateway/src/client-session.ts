import type net from "node:net";
import type tls from "node:tls";
import {
  HeadTooLarge,
  keepsAlive,
  MalformedMessage,
  parseRequestHead,
  type RequestHead,
  requestFraming,
} from "./http-message.ts";
import type { Flow } from "./meter.ts";
import { isSecureUrl } from "./origin-tls.ts";
import { type Outcome, readHead, relayPlainRequest, SESSION_MOVED_HEADER } from "./plain-request.ts";
import { closeConnection, Refusal, refuseConnection, sendRawRefusal } from "./refusal.ts";
import type { SessionDeps } from "./session-deps.ts";
import { SocketReader } from "./socket-reader.ts";
import { serveSocksClient } from "./socks-session.ts";
import { SOCKS_VERSION } from "./socks5.ts";
import { openFlow, openTunnel } from "./tunnel-setup.ts";

export type { SessionDeps };

/** How long a kept-alive client connection may sit between requests. */
const CLIENT_IDLE_MS = 60_000;
/** The same for a connection none of whose requests was admitted yet (a 407 kept alive): a
 * stranger's idle connection is given back soon, since it only holds a place. */
const STRANGER_IDLE_MS = 5_000;

const noop = () => {};
/** The first byte of a TLS record carrying a handshake (a ClientHello). */
const TLS_HANDSHAKE = 0x16;

function header(head: RequestHead, key: string): string | undefined {
  return head.headers.find((h) => h.key === key)?.value;
}

/** `host:port` or `[v6]:port`. */
function parseAuthority(authority: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:[\]/]+):(\d{1,5})$/.exec(authority);
  if (!match) {
    // An IPv6 address needs brackets, or its last group reads as the port.
    if ((authority.match(/:/g) ?? []).length > 1 && !authority.startsWith("[")) {
      throw new Refusal(
        "bad_request",
        "CONNECT to an IPv6 address needs brackets: CONNECT [2001:db8::1]:443",
      );
    }
    throw new Refusal("bad_request", "CONNECT needs host:port, e.g. CONNECT example.com:443");
  }
  const port = Number(match[2]);
  if (port < 1 || port > 65535) {
    throw new Refusal("bad_request", `CONNECT port ${match[2]} is not a port: use 1 to 65535`);
  }
  return { host: match[1] as string, port };
}

function parseProxyUrl(target: string): URL {
  // ws:// is HTTP with an Upgrade, relayed as such (the 101 turns into a tunnel); https:// and
  // wss:// are the same over TLS the gateway speaks to the site, as squid does.
  if (!/^(?:https?|wss?):\/\//i.test(target)) {
    throw new Refusal(
      "bad_request",
      "This is a proxy: send absolute-URI requests (http://host/path) or CONNECT",
    );
  }
  try {
    return new URL(target);
  } catch {
    throw new Refusal("bad_request", "The request URL is not valid");
  }
}

/**
 * One client connection on 8080 or (inside TLS) 8443: requests are read one after another
 * (keep-alive, pipelining), each either relayed as plain HTTP or turned into a CONNECT tunnel.
 */
export function serveClient(client: net.Socket, deps: SessionDeps): void {
  client.on("error", () => {});
  client.on("timeout", () => client.destroy());
  const reader = new SocketReader(client);
  const refuse = (refusal: Refusal, close: boolean) => {
    deps.metrics.refusals.labels(refusal.code).inc();
    // Closing drains what the client still sends: the reader must not hold it meanwhile.
    if (close) reader.stop();
    sendRawRefusal(client, refusal, close);
  };
  /** A request on this connection was admitted: it may idle between requests as long as a
   * customer's may (a stranger's connection gets STRANGER_IDLE_MS). */
  let admittedOnce = false;

  async function connect(head: RequestHead): Promise<void> {
    const { host, port } = parseAuthority(head.target);
    const admitted = await deps.admission.admit(client, header(head, "proxy-authorization"), host, port);
    const moved = admitted.sessionMoved ? `${SESSION_MOVED_HEADER}: 1\r\n` : "";
    await openTunnel(client, reader, admitted, deps, () =>
      client.write(`HTTP/1.1 200 Connection Established\r\n${moved}\r\n`),
    );
  }

  async function plain(head: RequestHead): Promise<Outcome> {
    const framing = requestFraming(head);
    const url = parseProxyUrl(head.target);
    const port = url.port !== "" ? Number(url.port) : isSecureUrl(url) ? 443 : 80;
    const admitted = await deps.admission.admit(
      client,
      header(head, "proxy-authorization"),
      url.hostname,
      port,
    );
    admittedOnce = true;
    // Opened once a target connection exists: a request refused before that (the destination
    // could not be reached) is not counted, as a refused CONNECT is not.
    const opened: { flow: Flow | null } = { flow: null };
    const progress = { headSent: false, closeDelimited: false };
    const requestFlow = (): Flow => {
      opened.flow ??= openFlow(client, admitted, deps, "http", progress);
      return opened.flow;
    };
    let outcome: Outcome = "close";
    try {
      outcome = await relayPlainRequest(
        client,
        reader,
        {
          head,
          url,
          framing,
          clientKeepAlive: keepsAlive(head.version, head.headers),
          admitted,
          onResponse: (status) => deps.outcomes.response(admitted, status),
          progress,
          originCa: deps.originCa,
        },
        requestFlow,
        deps.pool,
        noop,
      );
      return outcome;
    } catch (error) {
      // The account ran dry before the answer began: the client is told so, not the symptom.
      const cause = opened.flow?.cutCause;
      if (cause && !progress.headSent) throw cause;
      deps.outcomes.failed(admitted, error);
      throw error;
    } finally {
      // A switched protocol (101) keeps the flow open; the splice finishes it at close.
      if (outcome !== "spliced") opened.flow?.finish();
    }
  }

  /** Slowloris: a head (with its Proxy-Authorization) trickling in byte by byte is cut at the
   * deadline however active the connection looks. One timer serves the connection's heads one
   * after another (re-armed only when it fires before the head in progress is due): setting and
   * clearing a timer for every request of a kept-alive connection cost more than parsing it. */
  let headStartedAt: number | null = null;
  let headTimer: NodeJS.Timeout | null = null;
  let timedOut = false;
  const checkHeadDeadline = () => {
    headTimer = null;
    if (headStartedAt === null || client.destroyed) return;
    const left = headStartedAt + deps.headTimeoutMs - Date.now();
    if (left > 0) {
      headTimer = setTimeout(checkHeadDeadline, left);
      return;
    }
    timedOut = true;
    deps.metrics.refusals.labels("request_timeout").inc();
    reader.stop();
    refuseConnection(
      client,
      new Refusal("request_timeout", `The request head did not arrive within ${deps.headTimeoutMs} ms`),
    );
  };
  const startHeadDeadline = () => {
    if (headStartedAt !== null) return;
    headStartedAt = Date.now();
    headTimer ??= setTimeout(checkHeadDeadline, deps.headTimeoutMs);
  };
  const stopHeadDeadline = () => {
    headStartedAt = null;
  };
  client.once("close", () => {
    if (headTimer) clearTimeout(headTimer);
    headTimer = null;
  });

  /** The first bytes on the plain port say which protocol it is: a SOCKS5 greeting (version
   * byte 5) is served as SOCKS5; a TLS handshake is told at once where TLS is spoken, instead of
   * waiting out the head deadline for a request line that never comes. */
  async function handedOver(): Promise<boolean> {
    if ((client as Partial<tls.TLSSocket>).encrypted) return false;
    const first = await reader.read();
    if (!first) return false;
    reader.unshift(first);
    if (first[0] === SOCKS_VERSION) {
      stopHeadDeadline();
      serveSocksClient(client, deps, reader);
      return true;
    }
    if (first[0] === TLS_HANDSHAKE) {
      stopHeadDeadline();
      refuse(
        new Refusal("bad_request", "This port speaks plain HTTP: for TLS to the proxy use its TLS port"),
        true,
      );
      return true;
    }
    return false;
  }

  async function session(): Promise<void> {
    startHeadDeadline();
    if (await handedOver()) return;
    for (let first = true; ; first = false) {
      // The first head has the head deadline from accept; a stranger's wait for a later one is
      // short.
      client.setTimeout(first || admittedOnce ? CLIENT_IDLE_MS : STRANGER_IDLE_MS);
      let head: RequestHead;
      let hasBody = false;
      try {
        const raw = await readHead(reader, startHeadDeadline);
        if (timedOut) return;
        if (!raw) {
          client.end();
          return;
        }
        head = parseRequestHead(raw.buffer, raw.end);
        hasBody = requestFraming(head).kind !== "none";
      } catch (error) {
        if (timedOut) return;
        if (error instanceof HeadTooLarge)
          refuse(
            new Refusal("head_too_large", "The request head is over 64 KiB: send shorter headers or URL"),
            true,
          );
        else if (error instanceof MalformedMessage)
          refuse(new Refusal("bad_request", `Malformed request: ${error.message}`), true);
        else client.destroy();
        return;
      } finally {
        stopHeadDeadline();
        client.setTimeout(0);
      }
      try {
        if (head.method === "CONNECT") {
          await connect(head);
          return;
        }
        const outcome = await plain(head);
        if (outcome !== "keep-alive") {
          if (outcome === "close") {
            reader.stop();
            closeConnection(client);
          }
          return;
        }
      } catch (error) {
        if (error instanceof Refusal) {
          // The connection can carry on only if nothing of this request is left unread.
          const close = head.method === "CONNECT" || hasBody || !keepsAlive(head.version, head.headers);
          refuse(error, close);
          if (close) return;
          continue;
        }
        if (error instanceof MalformedMessage) {
          refuse(new Refusal("bad_request", `Malformed request: ${error.message}`), true);
          return;
        }
        throw error;
      }
    }
  }

  session().catch((error: unknown) => {
    deps.logger.error({ err: error }, "client connection failed");
    client.destroy();
  });
}
