import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseCidr } from "./ip-address.ts";
import { parseUpstream, type UpstreamSpec } from "./upstreams.ts";

export type ResolveHost = (hostname: string) => Promise<string[]>;

/** One port on one range, opened although the range is private (e.g. the API's own port on
 * loopback): unlike EGRESS_ALLOW, the other services on those addresses stay unreachable. */
export interface EgressAllowTarget {
  cidr: string;
  port: number;
}

export interface GatewayConfig {
  /** Address the listeners bind to. */
  host: string;
  /** 0 picks a free port (tests); the chosen one is on the gateway handle after listen(). */
  httpPort: number;
  httpsPort: number;
  /** PEM certificate and key for 8443; null means a self-signed pair is generated at start. */
  tls: { cert: string; key: string } | null;
  /** Where a generated certificate is kept across restarts (absent: a temporary directory). */
  dataDir: string | undefined;
  mobileUpstreams: UpstreamSpec[];
  datacenterUpstreams: UpstreamSpec[];
  /** CIDR ranges the egress guard lets through although they are private (tests: loopback). */
  egressAllow: string[];
  /** Single ports on ranges the egress guard lets through; the gateway's own ports never are. */
  egressAllowTargets: EgressAllowTarget[];
  pricePerGbUsd: number;
  dcPricePerGbUsd: number;
  /** Prometheus listener; null when the host process mounts `metricsRegistry` itself. */
  metricsPort: number | null;
  flushIntervalMs: number;
  /** How long a credential, balance or routing-rule lookup is trusted. */
  cacheTtlMs: number;
  /** How long close() lets live connections finish before cutting them. */
  shutdownGraceMs: number;
  /** DATA_DIR: where the usage journal and this instance's id survive a restart (absent: no
   * journal, a new instance id per start; decision 007). */
  stateDir: string | undefined;
  /** The largest byte lease one instance takes of a balance at once (decision 007). */
  leaseMaxBytes: number;
  /** DNS hook for the egress guard; default is the system resolver. */
  resolveHost?: ResolveHost;
  /** Open client connections per client address (IPv6: per /64), tunnels included. */
  maxConnectionsPerIp: number;
  /** Open client connections in total. */
  maxConnections: number;
  /** Time a client has for a whole request head, Proxy-Authorization included (and for the TLS
   * handshake on 8443), counted from its first byte (a new connection: from accept). */
  headTimeoutMs: number;
}

export const defaultGatewayConfig: GatewayConfig = {
  host: "0.0.0.0",
  httpPort: 8080,
  httpsPort: 8443,
  tls: null,
  dataDir: undefined,
  mobileUpstreams: [parseUpstream("direct")],
  datacenterUpstreams: [parseUpstream("direct")],
  egressAllow: [],
  egressAllowTargets: [],
  pricePerGbUsd: 3,
  dcPricePerGbUsd: 0.3,
  metricsPort: 9464,
  flushIntervalMs: 1000,
  cacheTtlMs: 2000,
  stateDir: undefined,
  leaseMaxBytes: 256 * 1024 * 1024,
  shutdownGraceMs: 5000,
  maxConnectionsPerIp: 256,
  maxConnections: 10_000,
  headTimeoutMs: 15_000,
};

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function port(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new ConfigError(`${name} must be a port number (0-65535), got "${raw}"`);
  }
  return value;
}

function positiveNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a positive number`);
  return value;
}

function list(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** `127.0.0.1/32:3000` or `[::1]/128:3000`: IPv6 in brackets, so the port is never ambiguous. */
export function parseEgressAllowTarget(text: string): EgressAllowTarget | null {
  const match = /^(\[[0-9a-f:.]+\](?:\/\d{1,3})?|[^:[\]]+):(\d{1,5})$/i.exec(text.trim());
  if (!match) return null;
  const [, cidr = "", portText = ""] = match;
  const port = Number(portText);
  if (port < 1 || port > 65535 || !parseCidr(cidr)) return null;
  return { cidr, port };
}

/** UPSTREAM_CA_FILE: a PEM file of one or more certificates an https upstream may chain to,
 * for exits on a private CA. Read and checked here so a wrong path stops the start, not the
 * first request. */
function upstreamCa(env: Env): string | undefined {
  const path = env.UPSTREAM_CA_FILE;
  if (path === undefined || path === "") return undefined;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(
      `UPSTREAM_CA_FILE: cannot read "${path}" (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new ConfigError(`UPSTREAM_CA_FILE: "${path}" holds no PEM certificate`);
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      throw new ConfigError(`UPSTREAM_CA_FILE: "${path}" holds a certificate that does not parse`);
    }
  }
  return blocks.join("\n");
}

function upstreams(env: Env, name: string, ca: string | undefined): UpstreamSpec[] {
  const items = list(env[name]);
  try {
    return items.length === 0 ? [parseUpstream("direct")] : items.map((item) => parseUpstream(item, { ca }));
  } catch (error) {
    throw new ConfigError(`${name}: ${(error as Error).message}`);
  }
}

function pemPair(env: Env): { cert: string; key: string } | null {
  const cert = env.GATEWAY_TLS_CERT;
  const key = env.GATEWAY_TLS_KEY;
  if (!cert && !key) return null;
  if (!cert || !key) throw new ConfigError("GATEWAY_TLS_CERT and GATEWAY_TLS_KEY must be set together");
  return { cert, key };
}

/** Reads the gateway's environment once; a wrong value throws a ConfigError naming the variable.
 * GATEWAY_TLS_CERT/_KEY hold PEM text or a path to a PEM file (resolved by main.ts). */
export function loadGatewayConfig(env: Env = process.env): GatewayConfig {
  const egressAllow = list(env.EGRESS_ALLOW);
  for (const cidr of egressAllow) {
    if (!parseCidr(cidr)) throw new ConfigError(`EGRESS_ALLOW: "${cidr}" is not a CIDR range`);
  }
  const egressAllowTargets = list(env.EGRESS_ALLOW_TARGETS).map((item) => {
    const target = parseEgressAllowTarget(item);
    if (!target) {
      throw new ConfigError(
        `EGRESS_ALLOW_TARGETS: "${item}" is not CIDR:port (like 127.0.0.1/32:3000 or [::1]/128:3000)`,
      );
    }
    return target;
  });
  const metricsRaw = env.GATEWAY_METRICS_PORT;
  const ca = upstreamCa(env);
  return {
    ...defaultGatewayConfig,
    host: env.GATEWAY_BIND || defaultGatewayConfig.host,
    httpPort: port(env, "GATEWAY_HTTP_PORT", 8080),
    httpsPort: port(env, "GATEWAY_HTTPS_PORT", 8443),
    tls: pemPair(env),
    dataDir: env.DATABASE_URL ? undefined : env.DATA_DIR || "./data",
    stateDir: env.DATA_DIR || undefined,
    mobileUpstreams: upstreams(env, "MOBILE_UPSTREAMS", ca),
    datacenterUpstreams: upstreams(env, "DATACENTER_UPSTREAMS", ca),
    egressAllow,
    egressAllowTargets,
    pricePerGbUsd: positiveNumber(env, "PRICE_PER_GB_USD", 3),
    dcPricePerGbUsd: positiveNumber(env, "DC_PRICE_PER_GB_USD", 0.3),
    metricsPort: metricsRaw === "off" ? null : port(env, "GATEWAY_METRICS_PORT", 9464),
    maxConnectionsPerIp: positiveNumber(
      env,
      "GATEWAY_MAX_CONNECTIONS_PER_IP",
      defaultGatewayConfig.maxConnectionsPerIp,
    ),
    maxConnections: positiveNumber(env, "GATEWAY_MAX_CONNECTIONS", defaultGatewayConfig.maxConnections),
    headTimeoutMs: positiveNumber(env, "GATEWAY_HEAD_TIMEOUT_MS", defaultGatewayConfig.headTimeoutMs),
  };
}
