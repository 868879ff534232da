import type { Duplex } from "node:stream";
import { Refusal } from "@bytetoll/egress";
import {
  type Admitted,
  CREDENTIAL_REFUSALS,
  type Credentials,
  type Destination,
} from "../admit/admission.ts";
import { type ClientSocket, NativeClient, NativeClientReader } from "../base/native-socket.ts";
import { SocketReader } from "../base/socket-reader.ts";
import type { SessionDeps } from "../relay/session-deps.ts";
import { TunnelContext } from "../relay/tunnel-context.ts";
import { openTunnel } from "../relay/tunnel-setup.ts";
import {
  methodChoice,
  type Parsed,
  parseGreeting,
  parseRequest,
  parseUserPass,
  reply,
  SocksCommand,
  SocksMethod,
  SocksReply,
  type SocksReplyCode,
  userPassStatus,
} from "./socks5.ts";

class SocksFailure extends Error {
  constructor(
    message: string,
    readonly reply?: SocksReplyCode,
  ) {
    super(message);
  }
}

/** How a SOCKS5 session reads its client: a SocketReader over a Node socket, or a
 * NativeClientReader over a native one. */
type HandshakeReader = Pick<SocketReader, "read" | "unshift" | "detach">;

/** Reads one message: accumulates chunks until `parse` has a whole one (the rest is put back). */
async function readMessage<T>(reader: HandshakeReader, parse: (bytes: Buffer) => Parsed<T>): Promise<T> {
  let buffer: Buffer = Buffer.alloc(0);
  for (;;) {
    const chunk = await reader.read();
    if (!chunk) throw new SocksFailure("the client closed during the SOCKS5 handshake");
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    const parsed = parse(buffer);
    if (parsed.kind === "need") continue;
    if (parsed.kind === "invalid") throw new SocksFailure(parsed.message, parsed.reply);
    if (parsed.consumed < buffer.length) reader.unshift(buffer.subarray(parsed.consumed));
    return parsed.value;
  }
}

/**
 * One SOCKS5 client (RFC 1928 with RFC 1929 username/password): the greeting, the credentials,
 * one CONNECT, then the tunnel. The whole handshake must arrive within the head deadline. The
 * username carries the same options as on the HTTP ports; a refusal after the credentials were
 * accepted (balance, destination, account) is a reply code, and its reason is logged.
 */
export function serveSocksClient(client: Duplex, deps: SessionDeps, reader = new SocketReader(client)): void {
  new SocksSession(client, deps, reader).start();
}

/** The same for a client the native front door accepted on the SOCKS5 port, with the bytes it
 * had sent (null: none yet). Its answers are sent on the descriptor; a refusal is written on a
 * Node socket made for it, as any refusal. */
export function serveNativeSocksClient(client: NativeClient, head: Buffer | null, deps: SessionDeps): void {
  new SocksSession(client, deps, new NativeClientReader(client, head)).start();
}

class SocksSession {
  private done = false;
  /** The credentials were answered and the request asked for. */
  private asked = false;
  private readonly deadline: NodeJS.Timeout;

  constructor(
    private readonly client: ClientSocket,
    private readonly deps: SessionDeps,
    private readonly reader: HandshakeReader,
  ) {
    client.on("error", () => {});
    this.deadline = setTimeout(() => {
      if (this.done) return;
      deps.metrics.refusals.labels("request_timeout").inc();
      client.destroy();
    }, deps.headTimeoutMs);
    client.once("close", () => clearTimeout(this.deadline));
  }

  start(): void {
    this.handshake().catch((error: unknown) => this.failed(error));
  }

  private fail(bytes: Buffer | null): void {
    this.done = true;
    clearTimeout(this.deadline);
    if (!bytes) {
      this.client.destroy();
      return;
    }
    // A native client's refusal is written on a Node socket made for it, as every refusal is.
    const client = this.client instanceof NativeClient ? this.client.handOver() : this.client;
    if (!client) return;
    if (client.writable) client.end(bytes);
    else client.destroy();
    setTimeout(() => client.destroy(), 2_000).unref();
  }

  private failed(error: unknown): void {
    if (error instanceof Refusal) {
      this.deps.logger.info({ reason: error.code, message: error.message }, "SOCKS5 request refused");
      if (!CREDENTIAL_REFUSALS.has(error.code)) this.deps.metrics.refusals.labels(error.code).inc();
      this.fail(reply(error.socksReply as SocksReplyCode));
      return;
    }
    if (error instanceof SocksFailure) {
      this.fail(error.reply === undefined ? null : reply(error.reply));
      return;
    }
    this.deps.logger.error({ err: error }, "SOCKS5 connection failed");
    this.client.destroy();
  }

  private async handshake(): Promise<void> {
    const credentials = await this.credentials();
    if (!credentials) return;
    let admitted: Admitted | null;
    try {
      admitted = await this.deps.admission.admit(this.client, credentials, () => this.request(credentials));
    } catch (error) {
      if (this.asked || !(error instanceof Refusal) || !CREDENTIAL_REFUSALS.has(error.code)) throw error;
      this.deps.metrics.refusals.labels(error.code).inc();
      if (credentials.kind === "userpass") {
        this.deps.logger.debug({ reason: error.code }, "SOCKS5 credentials refused");
        this.fail(userPassStatus(false));
      } else this.fail(methodChoice(SocksMethod.noneAcceptable));
      return;
    }
    if (!admitted) return;
    this.done = true;
    clearTimeout(this.deadline);
    const tunnel = new TunnelContext(this.client, "connect", admitted);
    await openTunnel(tunnel, this.reader, this.deps, reply(SocksReply.succeeded));
  }

  /** The greeting, and the credentials of the method chosen: a client with credentials offers
   * username/password, which is used whenever offered; without, the client's address must be on
   * an allowlist (null: neither was offered, and the client is answered so). */
  private async credentials(): Promise<Credentials | null> {
    const { methods } = await readMessage(this.reader, parseGreeting);
    if (methods.includes(SocksMethod.usernamePassword)) {
      this.client.write(methodChoice(SocksMethod.usernamePassword));
      const { username, password } = await readMessage(this.reader, parseUserPass);
      return { kind: "userpass", username, password };
    }
    if (methods.includes(SocksMethod.noAuthentication)) return { kind: "address" };
    this.deps.metrics.refusals.labels("auth_required").inc();
    this.fail(methodChoice(SocksMethod.noneAcceptable));
    return null;
  }

  /** The credentials were accepted (a refusal of their account answers the request): the
   * client's request. CONNECT becomes a tunnel; BIND and UDP ASSOCIATE are not supported. */
  private async request(credentials: Credentials): Promise<Destination | null> {
    this.asked = true;
    this.client.write(
      credentials.kind === "userpass" ? userPassStatus(true) : methodChoice(SocksMethod.noAuthentication),
    );
    const request = await readMessage(this.reader, parseRequest);
    if (request.command === SocksCommand.connect) return request;
    this.fail(reply(SocksReply.commandNotSupported));
    return null;
  }
}
