import type { Duplex } from "node:stream";
import { Refusal } from "@bytetoll/egress";
import { discardWritesOnceTargetGone } from "../base/discarded-writes.ts";
import {
  type Framing,
  keepsAlive,
  MalformedMessage,
  parseResponseHead,
  type ResponseHead,
  responseFraming,
} from "../base/http-message.ts";
import type { SocketReader } from "../base/socket-reader.ts";
import { writeAll } from "../base/write-all.ts";
import { carriesAbsoluteForm, dial } from "../dial/dial.ts";
import { isSecureUrl, openOriginTls } from "../dial/origin-tls.ts";
import { poolKey, type TargetConnection } from "../dial/target-pool.ts";
import type { Flow } from "../relay/meter.ts";
import type { SessionDeps } from "../relay/session-deps.ts";
import { splice } from "../relay/tunnel.ts";
import { openFlow, type ResponseProgress } from "../relay/tunnel-setup.ts";
import { readHead, relayBody } from "./message-io.ts";
import { clientResponseHead, keepsClientFor, type PlainRequest, unrelayableHead } from "./plain-message.ts";
import { targetHead } from "./target-head.ts";

const noop = () => {};

/** A target that stays silent this long in the middle of a request is given up. */
const TARGET_INACTIVITY_MS = 300_000;

/** What became of the client connection after one request. */
export type Outcome = "keep-alive" | "close" | "spliced";

/** A response head the gateway cannot relay (over 64 KiB, malformed): the client gets a 502
 * instead, so nothing the target sent of it is billed, and the connection is not reused. */
function refusedResponse(connection: TargetConnection, error: unknown): Refusal {
  connection.socket.destroy();
  connection.target.dropReceived();
  return unrelayableHead(error);
}

interface FinalResponse {
  head: ResponseHead;
  /** The head's bytes as the target sent them. */
  raw: Buffer;
}

/**
 * Relays one absolute-URI request: origin-form head and raw body to the target (kept-alive
 * connection when there is one), then the response head and raw body back. Bytes are billed
 * from the target socket's counters: exactly what the target sent and received. The request's
 * steps after admission: dial (or a pooled connection) → relay → meter → outcome.
 */
export class PlainRelay {
  private target: TargetConnection | null;
  private requestBody: Promise<boolean> = Promise.resolve(true);
  private requestBodyDone: boolean;
  /** The client's chunked body broke its framing: the target was cut before the bad bytes. */
  private malformedBody: MalformedMessage | null = null;
  private readonly key: string;
  private readonly sent: { text: string; proxyBytes: number };
  /** Set as the response goes out, so a cut knows what the client can still be told. */
  private readonly progress: ResponseProgress = { headSent: false, closeDelimited: false };
  /** `https://` in absolute form: the gateway speaks TLS to the site, as squid does. */
  private readonly secure: boolean;

  constructor(
    private readonly client: Duplex,
    private readonly clientReader: SocketReader,
    private readonly request: PlainRequest,
    private readonly deps: Pick<
      SessionDeps,
      "pool" | "meter" | "metrics" | "outcomes" | "logger" | "originCa"
    >,
  ) {
    this.secure = isSecureUrl(request.url);
    // A TLS connection is verified for one host name: only requests for that name may reuse it.
    const key = poolKey(request.tunnel.upstream, request.tunnel.target);
    this.key = this.secure ? `${key} tls ${request.url.hostname}` : key;
    this.sent = targetHead(request);
    this.target = deps.pool.acquire(this.key);
    this.requestBodyDone = request.framing.kind === "none";
  }

  /** The whole request; its failure is recorded as the site's where it was, and its flow is
   * finished unless a switched protocol (101) keeps it open (the splice finishes it at close). */
  async run(): Promise<Outcome> {
    let outcome: Outcome = "close";
    try {
      const response = await this.send();
      outcome = await this.answer(response);
      return outcome;
    } catch (error) {
      // The account ran dry before the answer began: the client is told so, not the symptom.
      const cause = this.request.tunnel.flow?.cutCause;
      if (cause && !this.progress.headSent) throw cause;
      this.deps.outcomes.failed(this.request.tunnel, error);
      throw error;
    } finally {
      if (outcome !== "spliced") this.request.tunnel.flow?.finish();
    }
  }

  /** Opened with the first target connection: a request refused before that (the destination
   * could not be reached) is not counted, as a refused CONNECT is not. */
  private meterFlow(): Flow {
    return this.request.tunnel.flow ?? openFlow(this.request.tunnel, this.deps, this.progress);
  }

  /** Sends the request until a final response head arrives. A kept-alive target connection the
   * target had already given up is replaced once, when nothing of the request is lost by it. */
  private async send(): Promise<FinalResponse> {
    const { framing } = this.request;
    for (let attempt = 0; ; attempt++) {
      this.target ??= await this.connectTarget();
      const connection = this.target;
      const outcome = await this.attempt(connection);
      if (typeof outcome !== "string") return outcome;
      connection.socket.destroy();
      this.target = null;
      if (this.malformedBody) throw this.malformedBody;
      if (!(connection.reused && attempt === 0 && framing.kind === "none"))
        throw new Refusal("upstream_failed", outcome);
    }
  }

  /** A new connection for the request: plain TCP (through the exit in absolute form when it is
   * an HTTP(S) proxy), or TLS to an `https://` site over a tunnel. */
  private async connectTarget(): Promise<TargetConnection> {
    const { tunnel, url } = this.request;
    const absolute = !this.secure && carriesAbsoluteForm(tunnel.upstream);
    const dialed = await dial(tunnel, absolute ? "plain-http" : "tunnel");
    return this.secure
      ? openOriginTls(dialed, url.hostname, this.deps.originCa)
      : this.deps.pool.wrap(dialed);
  }

  /** One try on `connection`: the final response, or why there was none. */
  private async attempt(connection: TargetConnection): Promise<FinalResponse | string> {
    const flow = this.meterFlow();
    // The account ran dry while this request waited (a retry on a fresh connection): no resend.
    if (flow.cutCause) {
      connection.socket.destroy();
      throw flow.cutCause;
    }
    this.request.tunnel.targetSocket = connection.target;
    flow.attach(connection.target);
    connection.socket.setTimeout(TARGET_INACTIVITY_MS);
    connection.target.excuseWritten(this.sent.proxyBytes);
    // An answer the target sent before it went away is read even when the upload to it fails.
    discardWritesOnceTargetGone(connection.socket);
    if (!(await writeAll(connection.socket, this.sent.text))) return "The destination closed the connection";
    if (this.request.framing.kind !== "none") this.relayRequestBody(connection, flow);
    const response = await this.finalHead(connection, flow);
    return response ?? "The destination closed the connection without answering";
  }

  private relayRequestBody(connection: TargetConnection, flow: Flow): void {
    this.requestBody = relayBody(this.clientReader, connection.socket, this.request.framing, flow).then(
      (done) => {
        this.requestBodyDone = done;
        return done;
      },
      (error: unknown) => {
        // A malformed chunked body from the client: the target never gets the bad bytes, and
        // the client is refused (the session answers 400 and closes).
        this.malformedBody =
          error instanceof MalformedMessage ? error : new MalformedMessage("broken request body");
        connection.socket.destroy();
        return false;
      },
    );
  }

  /** Interim 1xx responses (100 Continue) go straight to the client; the final one is returned
   * (null: the target closed without one). */
  private async finalHead(connection: TargetConnection, flow: Flow): Promise<FinalResponse | null> {
    for (;;) {
      let raw: { buffer: Buffer; end: number } | null;
      try {
        raw = await readHead(connection.reader);
      } catch (error) {
        if (this.malformedBody) throw this.malformedBody;
        if (error instanceof MalformedMessage) throw refusedResponse(connection, error);
        throw error;
      }
      if (!raw) return null;
      let parsed: ResponseHead;
      try {
        parsed = parseResponseHead(raw.buffer, raw.end);
        // Checked before the head is billed: a head whose body cannot be framed is refused too.
        responseFraming(parsed, this.request.head.method);
      } catch (error) {
        throw refusedResponse(connection, error);
      }
      flow.poll();
      if (parsed.status >= 100 && parsed.status < 200 && parsed.status !== 101) {
        await writeAll(this.client, raw.buffer.subarray(0, raw.end));
        continue;
      }
      this.deps.outcomes.response(this.request.tunnel, parsed.status);
      return { head: parsed, raw: raw.buffer.subarray(0, raw.end) };
    }
  }

  /** The response to the client: a switched protocol becomes a tunnel; anything else is relayed
   * as framed, and the target connection goes back to the pool when it can carry another. */
  private async answer(response: FinalResponse): Promise<Outcome> {
    const connection = this.target as TargetConnection;
    const flow = this.meterFlow();
    if (response.head.status === 101) {
      await writeAll(this.client, response.raw);
      const { socket, reader } = connection;
      splice(this.request.tunnel, this.clientReader.detach(), null, socket, reader, noop);
      return "spliced";
    }
    const framing = responseFraming(response.head, this.request.head.method);
    const clientKeepAlive = this.keepsClient(framing);
    if (!(await this.relayResponse(connection, response.head, framing, clientKeepAlive, flow))) {
      connection.socket.destroy();
      this.client.destroy();
      return "close";
    }
    connection.socket.setTimeout(0);
    if (!this.requestBodyDone) {
      // The target answered before the client finished its body: neither side can be reused. The
      // relay of the body stops with the target (the session then drains and closes the client).
      connection.socket.destroy();
      await this.requestBody;
      return "close";
    }
    await this.requestBody;
    if (framing.kind !== "close" && keepsAlive(response.head.version, response.head.headers))
      this.deps.pool.release(this.key, connection);
    else connection.socket.destroy();
    return clientKeepAlive ? "keep-alive" : "close";
  }

  /** An answer that came before the client's body was all sent (a 401 to an upload) ends the
   * client connection too: the rest of the body is not wanted. */
  private keepsClient(framing: Framing): boolean {
    return this.requestBodyDone && keepsClientFor(this.request, framing);
  }

  /** The response head and body to the client; false when either side went away first. */
  private async relayResponse(
    connection: TargetConnection,
    response: ResponseHead,
    framing: Framing,
    clientKeepAlive: boolean,
    flow: Flow,
  ): Promise<boolean> {
    this.progress.headSent = true;
    this.progress.closeDelimited = framing.kind === "close";
    const clientHead = clientResponseHead(response, this.request.tunnel.sessionMoved, clientKeepAlive);
    // The head and the body bytes already read leave in one write (one packet for small replies).
    this.client.cork();
    process.nextTick(() => this.client.uncork());
    try {
      if (!(await writeAll(this.client, clientHead))) return false;
      return await relayBody(connection.reader, this.client, framing, flow);
    } catch (error) {
      if (!(error instanceof MalformedMessage)) throw error;
      return false;
    }
  }
}
