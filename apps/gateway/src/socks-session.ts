import type { Duplex } from "node:stream";
import type { AccountBalance } from "./account-balance.ts";
import { ALLOWLISTED_OPTIONS, type Presented } from "./admission.ts";
import type { UsernameOptions } from "./proxy-auth.ts";
import { Refusal, type RefusalCode } from "./refusal.ts";
import type { SessionDeps } from "./session-deps.ts";
import { SocketReader } from "./socket-reader.ts";
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
  type SocksRequest,
  userPassStatus,
} from "./socks5.ts";
import { openTunnel } from "./tunnel-setup.ts";

const CREDENTIAL_REFUSALS: ReadonlySet<RefusalCode> = new Set([
  "auth_required",
  "bad_credentials",
  "bad_username_option",
]);

class SocksFailure extends Error {
  constructor(
    message: string,
    readonly reply?: SocksReplyCode,
  ) {
    super(message);
  }
}

/** Reads one message: accumulates chunks until `parse` has a whole one (the rest is put back). */
async function readMessage<T>(reader: SocketReader, parse: (bytes: Buffer) => Parsed<T>): Promise<T> {
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

/** Who a SOCKS5 client turned out to be: its account and options, or the refusal that waits for
 * its request to be answered (a refusal that is not about the credentials: balance, account). */
type Identity = { account: AccountBalance; options: UsernameOptions } | { refusal: Refusal };

/**
 * One SOCKS5 client (RFC 1928 with RFC 1929 username/password): the greeting, the credentials,
 * one CONNECT, then the tunnel. The whole handshake must arrive within the head deadline. The
 * username carries the same options as on the HTTP ports; a refusal after the credentials were
 * accepted (balance, destination, account) is a reply code, and its reason is logged.
 */
export function serveSocksClient(client: Duplex, deps: SessionDeps, reader = new SocketReader(client)): void {
  new SocksSession(client, deps, reader).start();
}

class SocksSession {
  private done = false;
  private readonly deadline: NodeJS.Timeout;

  constructor(
    private readonly client: Duplex,
    private readonly deps: SessionDeps,
    private readonly reader: SocketReader,
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
    if (bytes && this.client.writable) this.client.end(bytes);
    else this.client.destroy();
    setTimeout(() => this.client.destroy(), 2_000).unref();
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
    const { methods } = await readMessage(this.reader, parseGreeting);
    // A client with credentials offers username/password: that is used whenever offered.
    let identity: Identity | null;
    if (methods.includes(SocksMethod.usernamePassword)) identity = await this.withCredentials();
    else {
      identity = methods.includes(SocksMethod.noAuthentication) ? await this.withoutCredentials() : null;
      if (!identity) {
        this.deps.metrics.refusals.labels("auth_required").inc();
        this.fail(methodChoice(SocksMethod.noneAcceptable));
        return;
      }
    }
    if (identity) await this.request(identity);
  }

  /** The username/password method; null when the credentials were refused (and answered so). */
  private async withCredentials(): Promise<Identity | null> {
    this.client.write(methodChoice(SocksMethod.usernamePassword));
    const { username, password } = await readMessage(this.reader, parseUserPass);
    let identity: Identity;
    try {
      const presented: Presented = this.deps.admission.credentials(username, password);
      const account = await this.deps.admission.authenticate(this.client, presented);
      identity = { account, options: presented.options };
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      this.deps.metrics.refusals.labels(error.code).inc();
      if (CREDENTIAL_REFUSALS.has(error.code)) {
        this.deps.logger.debug({ reason: error.code }, "SOCKS5 credentials refused");
        this.fail(userPassStatus(false));
        return null;
      }
      identity = { refusal: error };
    }
    this.client.write(userPassStatus(true));
    return identity;
  }

  /** The no-authentication method, for a client whose address is on an account's IP allowlist
   * (null: it is on none, and the method is not acceptable). A refusal of the account itself
   * (balance, disabled) is the reply to its request. */
  private async withoutCredentials(): Promise<Identity | null> {
    let identity: Identity | null;
    try {
      const owner = await this.deps.admission.allowlisted(this.client);
      identity = owner ? { account: owner, options: ALLOWLISTED_OPTIONS } : null;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      identity = { refusal: error };
    }
    if (identity) this.client.write(methodChoice(SocksMethod.noAuthentication));
    return identity;
  }

  /** The client's request: CONNECT becomes a tunnel; BIND and UDP ASSOCIATE are not supported. */
  private async request(identity: Identity): Promise<void> {
    const request = await readMessage(this.reader, parseRequest);
    if (request.command !== SocksCommand.connect) {
      this.fail(reply(SocksReply.commandNotSupported));
      return;
    }
    if ("refusal" in identity) throw identity.refusal;
    await this.connect(identity.account, identity.options, request);
  }

  private async connect(account: AccountBalance, options: UsernameOptions, request: SocksRequest) {
    const admitted = await this.deps.admission.route(account, options, request.host, request.port);
    this.done = true;
    clearTimeout(this.deadline);
    await openTunnel(this.client, this.reader, admitted, this.deps, reply(SocksReply.succeeded));
  }
}
