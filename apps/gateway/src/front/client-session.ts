import type net from "node:net";
import type tls from "node:tls";
import { closeConnection, Refusal, refuseConnection, sendRawRefusal } from "@bytetoll/egress";
import {
  type Framing,
  HeadTooLarge,
  keepsAlive,
  MalformedMessage,
  parseRequestHead,
  type RequestHead,
  requestFraming,
} from "../base/http-message.ts";
import type { ClientSocket } from "../base/native-socket.ts";
import { SocketReader } from "../base/socket-reader.ts";
import { isSecureUrl } from "../dial/origin-tls.ts";
import type { SessionDeps } from "../relay/session-deps.ts";
import { TunnelContext } from "../relay/tunnel-context.ts";
import { openTunnel } from "../relay/tunnel-setup.ts";
import { HeadDeadline, headTimeoutRefusal } from "./head-deadline.ts";
import { readHead } from "./message-io.ts";
import { type PlainRequest, SESSION_MOVED_HEADER } from "./plain-message.ts";
import { type Outcome, PlainRelay } from "./plain-request.ts";
import { header, parseAuthority, parseProxyUrl } from "./request-target.ts";
import { serveSocksClient } from "./socks-session.ts";
import { SOCKS_VERSION } from "./socks5.ts";

export type { SessionDeps };

/** How long a kept-alive client connection may sit between requests. */
const CLIENT_IDLE_MS = 60_000;
/** The same for a connection none of whose requests was admitted yet (a 407 kept alive): a
 * stranger's idle connection is given back soon, since it only holds a place. */
const STRANGER_IDLE_MS = 5_000;
/** The first byte of a TLS record carrying a handshake (a ClientHello). */
const TLS_HANDSHAKE = 0x16;

const noop = () => {};

const ESTABLISHED = Buffer.from("HTTP/1.1 200 Connection Established\r\n\r\n", "latin1");
/** A sticky session's exit went down and it was given another: the client is told. */
const ESTABLISHED_SESSION_MOVED = Buffer.from(
  `HTTP/1.1 200 Connection Established\r\n${SESSION_MOVED_HEADER}: 1\r\n\r\n`,
  "latin1",
);

/** One request as read: its head and how its body is framed. */
interface ReadRequest {
  head: RequestHead;
  framing: Framing;
}

/** Where a connection the native front door began serving stands when it is handed over. */
export interface HandedOver {
  /** When it was accepted (its first head's deadline counts from then). */
  acceptedAt?: number;
  /** A plain request it read and admitted, to serve first. */
  admitted?: PlainRequest;
  /** It served a request already (answered or refused): the next head is not the first, and
   * waits as long as the connection may idle (`admittedOnce`: a customer's, or a stranger's). */
  servedBefore?: { admittedOnce: boolean };
}

/** One client connection on 8080 or (inside TLS) 8443, from its first request or (`from`) where
 * the native front door handed it over. */
export function serveClient(client: net.Socket, deps: SessionDeps, from: HandedOver = {}): void {
  new HttpClientSession(client, deps).start(from);
}

/** What a client whose request could not be parsed is told. */
export function malformedRefusal(error: MalformedMessage): Refusal {
  return new Refusal("bad_request", `Malformed request: ${error.message}`);
}

/** A CONNECT request's tunnel, whichever front door read it: admitted, dialled and relayed;
 * `leftover` holds what the client sent past the head. Refusals are the caller's to write. */
export async function connectTunnel(
  client: ClientSocket,
  head: RequestHead,
  leftover: Pick<SocketReader, "detach">,
  deps: SessionDeps,
): Promise<void> {
  const { host, port } = parseAuthority(head.target);
  const authorization = header(head, "proxy-authorization");
  const admitted = await deps.admission.admit(client, { kind: "header", authorization }, { host, port });
  const answer = admitted.sessionMoved ? ESTABLISHED_SESSION_MOVED : ESTABLISHED;
  await openTunnel(new TunnelContext(client, "connect", admitted), leftover, deps, answer);
}

/**
 * The HTTP proxy front-end for one client connection: requests are read one after another
 * (keep-alive, pipelining), each either relayed as plain HTTP or turned into a CONNECT tunnel.
 * It only parses HTTP; admission, dial, relay, metering and outcomes are the shared steps.
 */
class HttpClientSession {
  private readonly reader: SocketReader;
  private readonly deadline: HeadDeadline;
  /** A request on this connection was admitted: it may idle between requests as long as a
   * customer's may (a stranger's connection gets STRANGER_IDLE_MS). */
  private admittedOnce = false;

  constructor(
    private readonly client: net.Socket,
    private readonly deps: SessionDeps,
  ) {
    client.on("error", noop);
    client.on("timeout", () => client.destroy());
    this.reader = new SocketReader(client);
    this.deadline = new HeadDeadline(deps.headTimeoutMs, () => this.headTimedOut());
    client.once("close", () => this.deadline.dispose());
  }

  start(from: HandedOver): void {
    this.run(from).catch((error: unknown) => {
      this.deps.logger.error({ err: error }, "client connection failed");
      this.client.destroy();
    });
  }

  private async run({ acceptedAt, admitted, servedBefore }: HandedOver): Promise<void> {
    if (servedBefore) this.admittedOnce = servedBefore.admittedOnce;
    else if (admitted) {
      if (!(await this.serve(admitted, admitted))) return;
    } else {
      this.deadline.start(acceptedAt);
      if (await this.handedOver()) return;
    }
    for (let first = !(admitted || servedBefore); ; first = false) {
      const request = await this.nextRequest(first);
      if (!request || !(await this.serve(request))) return;
    }
  }

  private refuse(refusal: Refusal, close: boolean): void {
    this.deps.metrics.refusals.labels(refusal.code).inc();
    // Closing drains what the client still sends: the reader must not hold it meanwhile.
    if (close) this.reader.stop();
    sendRawRefusal(this.client, refusal, close);
  }

  private headTimedOut(): void {
    if (this.client.destroyed) return;
    this.deps.metrics.refusals.labels("request_timeout").inc();
    this.reader.stop();
    refuseConnection(this.client, headTimeoutRefusal(this.deps.headTimeoutMs));
  }

  /** The first bytes on the plain port say which protocol it is: a SOCKS5 greeting (version
   * byte 5) is served as SOCKS5; a TLS handshake is told at once where TLS is spoken, instead of
   * waiting out the head deadline for a request line that never comes. */
  private async handedOver(): Promise<boolean> {
    if ((this.client as Partial<tls.TLSSocket>).encrypted) return false;
    const first = await this.reader.read();
    if (!first) return false;
    this.reader.unshift(first);
    if (first[0] === SOCKS_VERSION) {
      this.deadline.stop();
      serveSocksClient(this.client, this.deps, this.reader);
      return true;
    }
    if (first[0] !== TLS_HANDSHAKE) return false;
    this.deadline.stop();
    this.refuse(
      new Refusal("bad_request", "This port speaks plain HTTP: for TLS to the proxy use its TLS port"),
      true,
    );
    return true;
  }

  /** The next request's head, or null when the connection is done with (closed by the client,
   * refused, timed out). The first head has the head deadline from accept; a later one waits as
   * long as a customer's connection may idle (a stranger's: briefly). */
  private async nextRequest(first: boolean): Promise<ReadRequest | null> {
    // The first head's wait is the head deadline's alone: an idle timer of its own would be set
    // and cleared on every short connection for nothing.
    if (!first) this.client.setTimeout(this.admittedOnce ? CLIENT_IDLE_MS : STRANGER_IDLE_MS);
    try {
      const raw = await readHead(this.reader, this.deadline.start);
      if (this.deadline.expired) return null;
      if (!raw) {
        this.client.end();
        return null;
      }
      const head = parseRequestHead(raw.buffer, raw.end);
      return { head, framing: requestFraming(head) };
    } catch (error) {
      if (this.deadline.expired) return null;
      if (error instanceof HeadTooLarge)
        this.refuse(
          new Refusal("head_too_large", "The request head is over 64 KiB: send shorter headers or URL"),
          true,
        );
      else if (error instanceof MalformedMessage) this.refuse(malformedRefusal(error), true);
      else this.client.destroy();
      return null;
    } finally {
      this.deadline.stop();
      if (!first) this.client.setTimeout(0);
    }
  }

  /** Serves one request; true when the connection carries on with the next one. */
  private async serve({ head, framing }: ReadRequest, admitted?: PlainRequest): Promise<boolean> {
    try {
      if (head.method === "CONNECT") {
        await connectTunnel(this.client, head, this.reader, this.deps);
        return false;
      }
      const outcome = admitted ? await this.relay(admitted) : await this.plain(head, framing);
      if (outcome === "close") {
        this.reader.stop();
        closeConnection(this.client);
      }
      return outcome === "keep-alive";
    } catch (error) {
      if (error instanceof Refusal) {
        // The connection can carry on only if nothing of this request is left unread.
        const close =
          head.method === "CONNECT" || framing.kind !== "none" || !keepsAlive(head.version, head.headers);
        this.refuse(error, close);
        return !close;
      }
      if (error instanceof MalformedMessage) {
        this.refuse(malformedRefusal(error), true);
        return false;
      }
      throw error;
    }
  }

  private async plain(head: RequestHead, framing: Framing): Promise<Outcome> {
    const url = parseProxyUrl(head.target);
    const port = url.port !== "" ? Number(url.port) : isSecureUrl(url) ? 443 : 80;
    const authorization = header(head, "proxy-authorization");
    const admitted = await this.deps.admission.admit(
      this.client,
      { kind: "header", authorization },
      { host: url.hostname, port },
    );
    const clientKeepAlive = keepsAlive(head.version, head.headers);
    const tunnel = new TunnelContext(this.client, "http", admitted);
    return this.relay({ head, url, framing, clientKeepAlive, tunnel });
  }

  private relay(request: PlainRequest): Promise<Outcome> {
    this.admittedOnce = true;
    return new PlainRelay(this.client, this.reader, request, this.deps).run();
  }
}
