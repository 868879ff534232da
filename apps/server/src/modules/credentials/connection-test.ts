import {
  type ConnectionTestData,
  type ConnectionTestRequest,
  PROXY_TARGET_NOT_ALLOWED,
} from "@bytetoll/contracts";
import { ProxyAgent, request } from "undici";
import { AppError } from "../../errors.ts";
import { toConnectionTestData } from "./ip-info.ts";

export interface ConnectionTestSettings {
  /** GATEWAY_HOST: the only host a customer may ask us to test (plus loopback when in-process). */
  gatewayHost: string;
  httpPort: number;
  httpsPort: number;
  /** Where the in-process gateway is reachable, or null when the gateway runs elsewhere. */
  inProcessDialHost: string | null;
  /** False when 8443 presents a self-signed certificate (no GATEWAY_TLS_CERT). */
  verifyProxyCertificate: boolean;
  ipInfoUrl: string;
  timeoutMs: number;
}

export interface ProxyEndpoint {
  dialHost: string;
  port: number;
  tls: boolean;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1"]);

const normaliseHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.+$/, "");

/**
 * The configured gateway, and nothing else: the test endpoint must not become a port scanner or a
 * way to make the server fetch through arbitrary proxies. Null when the target is not allowed.
 */
export function resolveProxyEndpoint(
  settings: ConnectionTestSettings,
  host: string,
  port: number,
): ProxyEndpoint | null {
  const wanted = normaliseHost(host);
  const isGateway =
    wanted === normaliseHost(settings.gatewayHost) ||
    (settings.inProcessDialHost !== null && LOOPBACK_NAMES.has(wanted));
  if (!isGateway) return null;
  if (port !== settings.httpPort && port !== settings.httpsPort) return null;
  // An in-process gateway is dialled directly: no DNS, no hairpin through a public address.
  const dialHost = settings.inProcessDialHost ?? normaliseHost(settings.gatewayHost);
  return { dialHost, port, tls: port === settings.httpsPort && port !== settings.httpPort };
}

/** The gateway's refusals (docs/product.md#gateway) in words a customer can act on. */
const REASONS: Record<number, string> = {
  402: "Your balance is used up. Buy more data to continue.",
  403: "The proxy refused to reach the test site.",
  407: "The proxy rejected this username or password.",
  502: "The proxy could not reach the test site.",
};

/** Refusals whose status another reason shares, told apart by the gateway's X-ByteToll-Error. */
const CODE_REASONS: Record<string, string> = {
  account_disabled: "This account has been disabled by the operator. Contact support.",
};

const failure = (message: string) => new AppError(422, message, "proxy_test_failed");

/** An anonymous visitor's set (docs/product.md#credentials) belongs to no account, so the gateway
 * refuses it with 402 like a spent balance; but nothing was used up, and no purchase can fix it
 * before the set belongs to an account: the refusal is a 403 that says so. */
export const TEMPORARY_CREDENTIALS_REFUSED =
  "These are temporary credentials: they carry traffic once you sign up (or sign in) with them. Sign up to get your free data, then test again.";

/** What a 402 from the gateway means for these credentials. */
async function paymentRefusal(input: ConnectionTestRequest, hooks: ConnectionTestHooks): Promise<AppError> {
  if (await hooks.isTemporary(input.username))
    return new AppError(403, TEMPORARY_CREDENTIALS_REFUSED, "temporary_credentials");
  return failure(REASONS[402] as string);
}

export interface ConnectionTestHooks {
  /** Whether the username (with or without options) names a set no account holds yet. */
  isTemporary(username: string): Promise<boolean>;
}

function proxyStatusOf(error: unknown): number | null {
  const message = error instanceof Error ? error.message : "";
  const match = /Proxy response \((\d{3})\)|\((407)\)/.exec(message);
  const status = match?.[1] ?? match?.[2];
  return status ? Number(status) : null;
}

function explain(error: unknown, endpoint: ProxyEndpoint): AppError {
  const status = proxyStatusOf(error);
  if (status !== null) return failure(REASONS[status] ?? `The proxy answered with HTTP ${status}.`);
  const name = error instanceof Error ? error.name : "";
  const code = (error as { code?: string }).code ?? "";
  if (name === "TimeoutError" || name === "AbortError" || code.includes("TIMEOUT"))
    return failure("The proxy did not answer in time.");
  if (code === "ECONNREFUSED" || code === "ECONNRESET" || code === "EHOSTUNREACH" || code === "ENOTFOUND")
    return failure(`Could not reach the proxy on port ${endpoint.port}.`);
  if (code.startsWith("ERR_TLS") || code.includes("CERT"))
    return failure("The proxy's TLS certificate was refused.");
  return failure("Proxy test failed");
}

function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`;
}

/** Fetches IPINFO_URL through the gateway with the given credentials (docs/product.md#data-shapes result shape). */
export async function runConnectionTest(
  settings: ConnectionTestSettings,
  input: ConnectionTestRequest,
  hooks: ConnectionTestHooks,
): Promise<ConnectionTestData> {
  const endpoint = resolveProxyEndpoint(settings, input.proxy_host, input.proxy_port);
  if (!endpoint) throw new AppError(400, PROXY_TARGET_NOT_ALLOWED, "proxy_not_allowed");

  const host = endpoint.dialHost.includes(":") ? `[${endpoint.dialHost}]` : endpoint.dialHost;
  const agent = new ProxyAgent({
    uri: `${endpoint.tls ? "https" : "http"}://${host}:${endpoint.port}`,
    token: basic(input.username, input.password),
    // A plain-HTTP info URL goes as an absolute-URI request, so the gateway's status reaches us
    // as a response rather than a failed tunnel; an https one needs CONNECT either way.
    proxyTunnel: new URL(settings.ipInfoUrl).protocol === "https:",
    proxyTls: {
      rejectUnauthorized: settings.verifyProxyCertificate && settings.inProcessDialHost === null,
      // SNI cannot carry an IP address; our own loopback gateway is named localhost.
      servername: settings.inProcessDialHost === null ? normaliseHost(settings.gatewayHost) : "localhost",
    },
  });
  try {
    const response = await request(settings.ipInfoUrl, {
      dispatcher: agent,
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) {
      // Only the gateway's own refusals carry X-ByteToll-Error; other statuses are the site's.
      const code = response.headers["x-bytetoll-error"];
      const refusedByGateway = code !== undefined;
      if (refusedByGateway && response.statusCode === 402) throw await paymentRefusal(input, hooks);
      const reason = refusedByGateway
        ? (CODE_REASONS[String(code)] ?? REASONS[response.statusCode])
        : undefined;
      throw failure(reason ?? `The test site answered with HTTP ${response.statusCode}.`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    const data = toConnectionTestData(body);
    if (!data) throw failure("The test site's answer was not IP information.");
    return data;
  } catch (error) {
    if (error instanceof AppError) throw error;
    // A refused CONNECT (an https info URL) carries only the status.
    if (proxyStatusOf(error) === 402) throw await paymentRefusal(input, hooks);
    throw explain(error, endpoint);
  } finally {
    agent.destroy().catch(() => {});
  }
}
