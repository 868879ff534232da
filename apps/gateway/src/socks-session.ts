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

class SocksFailure extends Error {}

/** Reads one message: accumulates chunks until `parse` has a whole one (the rest is put back). */
async function readMessage<T>(reader: SocketReader, parse: (bytes: Buffer) => Parsed<T>): Promise<T> {
  let buffer: Buffer = Buffer.alloc(0);
  for (;;) {
    const chunk = await reader.read();
    if (!chunk) throw new SocksFailure("the client closed during the SOCKS5 handshake");
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    const parsed = parse(buffer);
    if (parsed.kind === "need") continue;
    if (parsed.kind === "invalid") {
      throw Object.assign(new SocksFailure(parsed.message), { reply: parsed.reply });
    }
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
  client.on("error", () => {});
  let done = false;
  const deadline = setTimeout(() => {
    if (done) return;
    deps.metrics.refusals.labels("request_timeout").inc();
    client.destroy();
  }, deps.headTimeoutMs);
  client.once("close", () => clearTimeout(deadline));
  const fail = (bytes: Buffer | null) => {
    done = true;
    clearTimeout(deadline);
    if (bytes && client.writable) client.end(bytes);
    else client.destroy();
    setTimeout(() => client.destroy(), 2_000).unref();
  };

  async function handshake(): Promise<void> {
    const { methods } = await readMessage(reader, parseGreeting);
    // A client with credentials offers username/password: that is used whenever offered.
    if (!methods.includes(SocksMethod.usernamePassword)) {
      if (methods.includes(SocksMethod.noAuthentication) && (await withoutCredentials())) return;
      deps.metrics.refusals.labels("auth_required").inc();
      fail(methodChoice(SocksMethod.noneAcceptable));
      return;
    }
    client.write(methodChoice(SocksMethod.usernamePassword));
    const { username, password } = await readMessage(reader, parseUserPass);
    let account: AccountBalance | null = null;
    let presented: Presented | null = null;
    /** A refusal that is not about the credentials waits for the request to be answered. */
    let pending: Refusal | null = null;
    try {
      presented = deps.admission.credentials(username, password);
      account = await deps.admission.authenticate(client, presented);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      deps.metrics.refusals.labels(error.code).inc();
      if (CREDENTIAL_REFUSALS.has(error.code)) {
        deps.logger.debug({ reason: error.code }, "SOCKS5 credentials refused");
        fail(userPassStatus(false));
        return;
      }
      pending = error;
    }
    client.write(userPassStatus(true));
    const request = await readMessage(reader, parseRequest);
    if (request.command !== SocksCommand.connect) {
      fail(reply(SocksReply.commandNotSupported));
      return;
    }
    if (pending || !account || !presented) throw pending ?? new Refusal("bad_request", "not admitted");
    await connect(account, presented.options, request);
  }

  /** The no-authentication method, for a client whose address is on an account's IP allowlist
   * (false: it is on none, and the method is not acceptable). A refusal of the account itself
   * (balance, disabled) is the reply to its request. */
  async function withoutCredentials(): Promise<boolean> {
    let owner: AccountBalance | null = null;
    let pending: Refusal | null = null;
    try {
      owner = await deps.admission.allowlisted(client);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      pending = error;
    }
    if (!owner && !pending) return false;
    client.write(methodChoice(SocksMethod.noAuthentication));
    const request = await readMessage(reader, parseRequest);
    if (request.command !== SocksCommand.connect) {
      fail(reply(SocksReply.commandNotSupported));
      return true;
    }
    if (pending || !owner) throw pending ?? new Refusal("bad_request", "not admitted");
    await connect(owner, ALLOWLISTED_OPTIONS, request);
    return true;
  }

  async function connect(
    account: AccountBalance,
    options: UsernameOptions,
    request: SocksRequest,
  ): Promise<void> {
    const admitted = await deps.admission.route(account, options, request.host, request.port);
    done = true;
    clearTimeout(deadline);
    await openTunnel(client, reader, admitted, deps, () => client.write(reply(SocksReply.succeeded)));
  }

  handshake().catch((error: unknown) => {
    if (error instanceof Refusal) {
      deps.logger.info({ reason: error.code, message: error.message }, "SOCKS5 request refused");
      if (!CREDENTIAL_REFUSALS.has(error.code)) deps.metrics.refusals.labels(error.code).inc();
      fail(reply(error.socksReply as SocksReplyCode));
      return;
    }
    if (error instanceof SocksFailure) {
      const code = (error as SocksFailure & { reply?: SocksReplyCode }).reply;
      fail(code === undefined ? null : reply(code));
      return;
    }
    deps.logger.error({ err: error }, "SOCKS5 connection failed");
    client.destroy();
  });
}
