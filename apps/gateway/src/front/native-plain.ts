import {
  closeConnection,
  IP_INFO_ADDRESS,
  Refusal,
  refuseConnection,
  sendRawRefusal,
} from "@bytetoll/egress";
import {
  headEnd,
  keepsAlive,
  MAX_HEAD_BYTES,
  MalformedMessage,
  type RequestHead,
} from "../base/http-message.ts";
import type { NativeClient } from "../base/native-socket.ts";
import { dial } from "../dial/dial.ts";
import { NativeTarget } from "../dial/native-splice.ts";
import { poolKey } from "../dial/target-pool.ts";
import type { TargetSocket } from "../dial/target-socket.ts";
import type { SessionDeps } from "../relay/session-deps.ts";
import { TunnelContext } from "../relay/tunnel-context.ts";
import { openFlow, type ResponseProgress } from "../relay/tunnel-setup.ts";
import { type HandedOver, malformedRefusal, serveClient } from "./client-session.ts";
import { headTimeoutRefusal } from "./head-deadline.ts";
import {
  nativePlainRequest,
  type ReadResponse,
  readNative,
  readResponseHead,
  relayResponseBody,
  sendNative,
} from "./native-exchange.ts";
import { clientResponseHead, keepsClientFor, type PlainRequest, unrelayableHead } from "./plain-message.ts";
import { header, parseProxyUrl } from "./request-target.ts";
import { targetHead } from "./target-head.ts";

/** How long a kept-alive client connection may sit between requests (as on the Node path). */
const CLIENT_IDLE_MS = 60_000;

/**
 * The common plain request — `GET http://site/…` with no body, through a direct exit — served on
 * the native client's descriptor and a target the splice addon dialled, with no Node socket or
 * stream on either side: the request head is parsed from the first bytes, admitted as any
 * request, sent, the response head read and rewritten, and its body moved by the splice relay
 * (a body framed by length up to its end, so both connections can carry the next request).
 * Whatever this path does not take (a body, `https://`, an upgrade, pipelined bytes, an exit
 * that is a proxy, a refusal to write) goes to the Node session from there, with nothing lost.
 * Target connections are kept alive in the gateway's pool (its native side) between requests,
 * from any client, as the Node path's are.
 */

/** What the client connection does after a request: carry the next one here, be closed, or
 * nothing more here (the Node session took it over, or it was cut). */
type Next = "keep-alive" | "close" | "gone";

export class NativePlainSession {
  /** The target of the request being served (null between requests: it went back to the pool,
   * or was closed). */
  private target: TargetSocket<NativeTarget> | null = null;
  /** A request on this connection was admitted (a customer's connection, not a stranger's). */
  private admittedOnce = false;

  constructor(
    private readonly client: NativeClient,
    private readonly deps: SessionDeps,
  ) {
    client.once("close", () => this.dropTarget());
  }

  start(first: RequestHead): void {
    this.serve(first).catch((error: unknown) => {
      this.deps.logger.error({ err: error }, "client connection failed");
      this.client.destroy();
      this.dropTarget();
    });
  }

  private async serve(first: RequestHead): Promise<void> {
    for (let head: RequestHead | null = first; head; head = await this.nextHead()) {
      const next = await this.request(head);
      if (next === "close") this.close();
      if (next !== "keep-alive") return;
    }
  }

  /** The next request, when it is one this path serves; anything else goes to the Node session
   * with the bytes read (null: that, or the client closed, idled out or was too slow). The wait
   * for its first byte is a customer's idle allowance; from that byte on, the head deadline. */
  private async nextHead(): Promise<RequestHead | null> {
    let buffer: Buffer = Buffer.alloc(0);
    let timedOut = false;
    let timer = setTimeout(() => this.client.destroy(), CLIENT_IDLE_MS);
    try {
      for (;;) {
        const bytes = await readNative(this.client);
        if (timedOut) return null;
        if (!bytes || bytes.length === 0) {
          this.client.destroy();
          return null;
        }
        if (buffer.length === 0) {
          clearTimeout(timer);
          timer = setTimeout(() => {
            // Handing the client over stops the read; the wait above then ends with its close.
            timedOut = true;
            this.headTimedOut();
          }, this.deps.headTimeoutMs);
        }
        buffer = buffer.length === 0 ? bytes : Buffer.concat([buffer, bytes]);
        const end = headEnd(buffer);
        if (end === -1 && buffer.length <= MAX_HEAD_BYTES && buffer[0] !== 0x0d) continue;
        const head = nativePlainRequest(buffer);
        if (head) return head;
        this.handOver(buffer, { servedBefore: { admittedOnce: this.admittedOnce } });
        return null;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** A head that did not arrive whole within the deadline is answered 408 and the connection
   * closed, as on the Node path. */
  private headTimedOut(): void {
    const socket = this.client.handOver();
    if (!socket) return;
    this.deps.metrics.refusals.labels("request_timeout").inc();
    refuseConnection(socket, headTimeoutRefusal(this.deps.headTimeoutMs));
  }

  /** The Node session takes over this connection, with `buffered` to read first, from where
   * this one stands (`from`). */
  private handOver(buffered: Buffer | null, from: HandedOver): void {
    this.dropTarget();
    const socket = this.client.handOver(buffered ? [buffered] : []);
    if (socket) serveClient(socket, this.deps, from);
  }

  private close(): void {
    this.dropTarget();
    const socket = this.client.handOver();
    if (socket) closeConnection(socket);
  }

  private dropTarget(): void {
    this.target?.socket.destroy();
    this.target = null;
  }

  private async request(head: RequestHead): Promise<Next> {
    const clientKeepAlive = keepsAlive(head.version, head.headers);
    let tunnel: TunnelContext;
    try {
      const url = parseProxyUrl(head.target);
      const port = url.port !== "" ? Number(url.port) : 80;
      const authorization = header(head, "proxy-authorization");
      const admitted = await this.deps.admission.admit(
        this.client,
        { kind: "header", authorization },
        { host: url.hostname, port },
      );
      this.admittedOnce = true;
      tunnel = new TunnelContext(this.client, "http", admitted);
      const request = { head, url, framing: { kind: "none" } as const, clientKeepAlive, tunnel };
      if (tunnel.upstream.kind !== "direct" || tunnel.target.address === IP_INFO_ADDRESS) {
        this.handOver(null, { admitted: request });
        return "gone";
      }
      return await this.exchange(request);
    } catch (error) {
      return this.refused(error, clientKeepAlive);
    }
  }

  /** A refusal is written on a Node socket made for it; the Node session serves what follows on
   * a connection kept alive. */
  private refused(error: unknown, clientKeepAlive: boolean): Next {
    const refusal = error instanceof MalformedMessage ? malformedRefusal(error) : error;
    if (!(refusal instanceof Refusal)) throw error;
    this.dropTarget();
    this.deps.metrics.refusals.labels(refusal.code).inc();
    const socket = this.client.handOver();
    if (!socket) return "close";
    sendRawRefusal(socket, refusal, !clientKeepAlive);
    if (clientKeepAlive)
      serveClient(socket, this.deps, { servedBefore: { admittedOnce: this.admittedOnce } });
    return "gone";
  }

  /** An idle kept-alive connection to this request's target, or a new one. */
  private async targetFor(
    request: PlainRequest,
    key: string,
  ): Promise<{ dialed: TargetSocket<NativeTarget>; reused: boolean }> {
    const pooled = this.deps.pool.acquireNative(key);
    if (pooled) {
      this.target = pooled;
      return { dialed: pooled, reused: true };
    }
    const dialed = await dial(request.tunnel, "native-tunnel");
    if (!(dialed.socket instanceof NativeTarget)) {
      dialed.socket.destroy();
      throw new Refusal("upstream_failed", "The destination could not be dialled natively");
    }
    this.target = dialed as TargetSocket<NativeTarget>;
    return { dialed: this.target, reused: false };
  }

  /** Sends the request until a response head arrives (a reused target that had closed is
   * replaced once, since nothing of the request is lost by it). */
  private async send(
    request: PlainRequest,
    progress: ResponseProgress,
  ): Promise<{ response: ReadResponse; target: NativeTarget }> {
    const { tunnel } = request;
    const sent = Buffer.from(targetHead(request).text);
    const key = poolKey(tunnel.upstream, tunnel.target);
    for (let attempt = 0; ; attempt++) {
      const target = await this.targetFor(request, key);
      const socket = target.dialed.socket;
      tunnel.targetSocket = target.dialed;
      const flow = tunnel.flow ?? openFlow(tunnel, this.deps, progress);
      flow.attach(target.dialed);
      if (flow.cutCause) throw flow.cutCause;
      const response =
        (await sendNative(this.client, socket, "target", sent)) &&
        (await readResponseHead(this.client, socket, request.head.method, () => flow.poll()));
      if (response) {
        flow.poll();
        return { response, target: socket };
      }
      this.dropTarget();
      if (flow.cutCause) throw flow.cutCause;
      if (this.client.destroyed) throw new Refusal("upstream_failed", "The client went away");
      if (!(target.reused && attempt === 0))
        throw new Refusal("upstream_failed", "The destination closed the connection without answering");
    }
  }

  /** One request and its response; what the client connection does next. */
  private async exchange(request: PlainRequest): Promise<Next> {
    const { tunnel } = request;
    const progress: ResponseProgress = { headSent: false, closeDelimited: false };
    try {
      const { response, target } = await this.send(request, progress);
      const flow = tunnel.flow;
      const poll = () => flow?.poll();
      this.deps.outcomes.response(tunnel, response.head.status);
      const { framing } = response;
      const keepClient = keepsClientFor(request, framing);
      const clientHead = clientResponseHead(response.head, tunnel.sessionMoved, keepClient);
      progress.headSent = true;
      progress.closeDelimited = framing.kind === "close";
      const ended = await relayResponseBody(this.client, target, response, Buffer.from(clientHead), poll);
      if (!ended.whole) {
        this.client.destroy();
        this.dropTarget();
        return "gone";
      }
      if (ended.reusable && keepsAlive(response.head.version, response.head.headers) && this.target) {
        this.deps.pool.releaseNative(poolKey(tunnel.upstream, tunnel.target), this.target);
        this.target = null;
      } else this.dropTarget();
      return keepClient ? "keep-alive" : "close";
    } catch (error) {
      const cause = tunnel.flow?.cutCause;
      if (cause && !progress.headSent) throw cause;
      let failure = error;
      if (error instanceof MalformedMessage && !progress.headSent) {
        // A response head that cannot be relayed: the client gets a 502, and nothing of it is billed.
        tunnel.targetSocket?.dropReceived();
        failure = unrelayableHead(error);
      }
      this.deps.outcomes.failed(tunnel, failure);
      if (failure instanceof Refusal && !progress.headSent) throw failure;
      this.client.destroy();
      this.dropTarget();
      return "gone";
    } finally {
      tunnel.flow?.finish();
    }
  }
}
