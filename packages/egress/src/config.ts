import { X509Certificate } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import type { EgressAllowTarget, ResolveHost } from "./egress-guard.ts";
import {
  ConfigError,
  type Env,
  listOf,
  parseEnv,
  portNumber,
  positiveNumber,
  readWith,
  refuse,
  urlWithProtocols,
} from "./env-parsing.ts";
import { parseCidr } from "./ip-address.ts";
import { parseUpstream, type UpstreamSpec } from "./upstreams.ts";

export interface GatewayConfig {
  /** Address the listeners bind to. */
  host: string;
  /** 0 picks a free port (tests); the chosen one is on the gateway handle after listen(). */
  httpPort: number;
  httpsPort: number;
  /** SOCKS5 listener (RFC 1928/1929); null: none. As with the others, 0 picks a free port. */
  socksPort: number | null;
  /** PEM certificate and key for 8443; null means a self-signed pair is generated at start. */
  tls: { cert: string; key: string } | null;
  /** Where a generated certificate is kept across restarts (absent: a temporary directory). */
  dataDir: string | undefined;
  mobileUpstreams: UpstreamSpec[];
  datacenterUpstreams: UpstreamSpec[];
  /** UPSTREAMS_KEY, and the directory of upstreams-key when it is unset: what opens the console
   * exits' passwords (decision 042). Neither: console exits with a password are left out. */
  upstreamsKey?: { secret: string | undefined; dir: string | undefined };
  /** UPSTREAM_CA_FILE, for console exits as for the environment's. */
  upstreamCa?: string;
  /** CIDR ranges the egress guard lets through although they are private (tests: loopback). */
  egressAllow: string[];
  /** Single ports on ranges the egress guard lets through; the gateway's own ports never are. */
  egressAllowTargets: EgressAllowTarget[];
  /** Ports the host process listens on besides the gateway's (the API's PORT under `npm start`):
   * like the gateway's own, never dialled on any address of this host, whatever is allowed. */
  processPorts: number[];
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
  /** The largest byte lease one instance takes of a balance at once (decision 007): at the
   * default 256 MiB and ~1.5 GB/s one instance renews ~6 times a second, and what an account can
   * overdraw stays below instances × this. */
  leaseMaxBytes: number;
  /** Journal directories of other instances whose usage this one commits at start (a worker
   * that no longer exists, or the single process before workers): nothing they metered is lost. */
  adoptJournals?: string[];
  /** DNS hook for the egress guard; default is the system resolver. */
  resolveHost?: ResolveHost;
  /** Open client connections per client address (IPv6: per /64), tunnels included. */
  maxConnectionsPerIp: number;
  /** Open client connections per network (IPv4 /24, IPv6 /48); at the cap, or at the total, a
   * new connection cuts the oldest one not yet authenticated to make room. */
  maxConnectionsPerNetwork: number;
  /** Open client connections in total. */
  maxConnections: number;
  /** Time a client has for a whole request head, Proxy-Authorization included (and for the TLS
   * handshake on 8443), counted from its first byte (a new connection: from accept). */
  headTimeoutMs: number;
  /** GATEWAY_SPLICE: `auto` (the default) relays plain-TCP tunnels with splice(2) when the
   * native addon was built (packages/splice): half the CPU per GB or less, as fast or faster;
   * `off` always in JavaScript (decisions 016 and 021). */
  splice: "auto" | "off";
  /** A CA (PEM) trusted besides Node's roots for sites asked for as `GET https://…` (tests and
   * embedders; an operator sets NODE_EXTRA_CA_CERTS). */
  originCa?: string;
}

export { ConfigError, parseEnv, portNumber, urlWithProtocols };

export const defaultGatewayConfig: GatewayConfig = {
  host: "0.0.0.0",
  httpPort: 8080,
  httpsPort: 8443,
  socksPort: 1080,
  tls: null,
  dataDir: undefined,
  mobileUpstreams: [parseUpstream("direct")],
  datacenterUpstreams: [parseUpstream("direct")],
  egressAllow: [],
  egressAllowTargets: [],
  processPorts: [],
  pricePerGbUsd: 3,
  dcPricePerGbUsd: 0.3,
  metricsPort: 9464,
  flushIntervalMs: 1000,
  cacheTtlMs: 2000,
  stateDir: undefined,
  leaseMaxBytes: 256 * 1024 * 1024,
  shutdownGraceMs: 5000,
  maxConnectionsPerIp: 256,
  maxConnectionsPerNetwork: 1_024,
  maxConnections: 10_000,
  headTimeoutMs: 15_000,
  splice: "auto",
};

/** "direct" or a comma list of http/https/socks5 proxy URLs; kept as text, checked here. */
const upstreamList = listOf((entry) => {
  parseUpstream(entry);
  return entry;
})
  .refine((entries) => entries.length > 0, "must be direct or a comma list of proxy URLs")
  .default(["direct"]);

/** `127.1`, `10.0.0.0/8`, `[::1]/128`: the forms the egress guard matches addresses with. */
const cidrList = listOf((entry) =>
  parseCidr(entry) ? entry : refuse(`"${entry}" is not a CIDR range like 127.0.0.0/8`),
).default([]);

/** `127.0.0.1/32:3000` or `[::1]/128:3000`: IPv6 in brackets, so the port is never ambiguous. */
export function parseEgressAllowTarget(text: string): EgressAllowTarget | null {
  const match = /^(\[[0-9a-f:.]+\](?:\/\d{1,3})?|[^:[\]]+):(\d{1,5})$/i.exec(text.trim());
  if (!match) return null;
  const [, cidr = "", portText = ""] = match;
  const port = Number(portText);
  if (port < 1 || port > 65535 || !parseCidr(cidr)) return null;
  return { cidr, port };
}

const egressAllowTargets = listOf(
  (entry) =>
    parseEgressAllowTarget(entry) ??
    refuse(`"${entry}" is not CIDR:port (like 127.0.0.1/32:3000 or [::1]/128:3000)`),
).default([]);

/** GATEWAY_TLS_CERT/_KEY may hold the PEM itself or a path to a PEM file. */
function pem(value: string): string {
  return value.includes("-----BEGIN") || !existsSync(value) ? value : readFileSync(value, "utf8");
}

/** UPSTREAM_CA_FILE: a PEM file of one or more certificates an https upstream may chain to,
 * for exits on a private CA. Read and checked here so a wrong path stops the start, not the
 * first request. */
function readCaFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return refuse(`cannot read "${path}" (${(error as NodeJS.ErrnoException).code})`);
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) refuse(`"${path}" holds no PEM certificate`);
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      refuse(`"${path}" holds a certificate that does not parse`);
    }
  }
  return blocks.join("\n");
}

/** GATEWAY_METRICS_PORT: a port, or `off` when the host process serves the metrics itself. */
const metricsPort = z.union([z.literal("off").transform(() => null), portNumber(0)], {
  error: "must be a port number (0-65535) or off",
});

/**
 * Every variable the gateway reads. Ports may be 0 (any free port: tests); the server, which
 * tells customers its gateway's ports, narrows them to 1-65535. Unset variables keep no default
 * here when whoever runs the gateway must know they were unset (GATEWAY_BIND, DATA_DIR,
 * GATEWAY_METRICS_PORT); gatewayConfigFrom fills those in.
 */
export const gatewayEnvSchema = z.object({
  GATEWAY_BIND: z.string().optional(),
  GATEWAY_HTTP_PORT: portNumber(0).default(defaultGatewayConfig.httpPort),
  GATEWAY_HTTPS_PORT: portNumber(0).default(defaultGatewayConfig.httpsPort),
  // 0 turns the SOCKS5 listener off (a free port is what tests ask of the others).
  GATEWAY_SOCKS_PORT: portNumber(0).default(defaultGatewayConfig.socksPort ?? 0),
  GATEWAY_TLS_CERT: z.string().transform(pem).optional(),
  GATEWAY_TLS_KEY: z.string().transform(pem).optional(),
  GATEWAY_METRICS_PORT: metricsPort.optional(),
  DATA_DIR: z.string().optional(),
  DATABASE_URL: urlWithProtocols(["postgres:", "postgresql:"]).optional(),
  UPSTREAM_CA_FILE: readWith(readCaFile).optional(),
  MOBILE_UPSTREAMS: upstreamList,
  DATACENTER_UPSTREAMS: upstreamList,
  UPSTREAMS_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  EGRESS_ALLOW: cidrList,
  EGRESS_ALLOW_TARGETS: egressAllowTargets,
  PRICE_PER_GB_USD: positiveNumber(defaultGatewayConfig.pricePerGbUsd),
  DC_PRICE_PER_GB_USD: positiveNumber(defaultGatewayConfig.dcPricePerGbUsd),
  GATEWAY_MAX_CONNECTIONS_PER_IP: positiveNumber(defaultGatewayConfig.maxConnectionsPerIp),
  GATEWAY_MAX_CONNECTIONS_PER_NETWORK: positiveNumber(defaultGatewayConfig.maxConnectionsPerNetwork),
  GATEWAY_MAX_CONNECTIONS: positiveNumber(defaultGatewayConfig.maxConnections),
  GATEWAY_HEAD_TIMEOUT_MS: positiveNumber(defaultGatewayConfig.headTimeoutMs),
  GATEWAY_SPLICE: z
    .enum(["auto", "off"], { error: "must be auto or off" })
    .default(defaultGatewayConfig.splice),
});

export type GatewayEnv = z.output<typeof gatewayEnvSchema>;

/** The checks across the gateway's variables; the server runs them on its own schema too. */
export function checkGatewayEnv(env: GatewayEnv, ctx: z.RefinementCtx): void {
  if (Boolean(env.GATEWAY_TLS_CERT) !== Boolean(env.GATEWAY_TLS_KEY)) {
    const missing = env.GATEWAY_TLS_CERT ? "GATEWAY_TLS_KEY" : "GATEWAY_TLS_CERT";
    ctx.addIssue({ code: "custom", path: [missing], message: "must be set together with its pair" });
  }
}

/** The gateway's settings from its parsed variables. */
export function gatewayConfigFrom(env: GatewayEnv): GatewayConfig {
  const trust = { ca: env.UPSTREAM_CA_FILE };
  const cert = env.GATEWAY_TLS_CERT;
  const key = env.GATEWAY_TLS_KEY;
  return {
    ...defaultGatewayConfig,
    host: env.GATEWAY_BIND ?? defaultGatewayConfig.host,
    httpPort: env.GATEWAY_HTTP_PORT,
    httpsPort: env.GATEWAY_HTTPS_PORT,
    socksPort: env.GATEWAY_SOCKS_PORT === 0 ? null : env.GATEWAY_SOCKS_PORT,
    tls: cert && key ? { cert, key } : null,
    dataDir: env.DATABASE_URL ? undefined : (env.DATA_DIR ?? "./data"),
    stateDir: env.DATA_DIR,
    mobileUpstreams: env.MOBILE_UPSTREAMS.map((entry) => parseUpstream(entry, trust)),
    datacenterUpstreams: env.DATACENTER_UPSTREAMS.map((entry) => parseUpstream(entry, trust)),
    upstreamsKey: { secret: env.UPSTREAMS_KEY, dir: env.DATA_DIR },
    ...(env.UPSTREAM_CA_FILE === undefined ? {} : { upstreamCa: env.UPSTREAM_CA_FILE }),
    egressAllow: env.EGRESS_ALLOW,
    egressAllowTargets: env.EGRESS_ALLOW_TARGETS,
    pricePerGbUsd: env.PRICE_PER_GB_USD,
    dcPricePerGbUsd: env.DC_PRICE_PER_GB_USD,
    metricsPort:
      env.GATEWAY_METRICS_PORT === undefined ? defaultGatewayConfig.metricsPort : env.GATEWAY_METRICS_PORT,
    maxConnectionsPerIp: env.GATEWAY_MAX_CONNECTIONS_PER_IP,
    maxConnectionsPerNetwork: env.GATEWAY_MAX_CONNECTIONS_PER_NETWORK,
    maxConnections: env.GATEWAY_MAX_CONNECTIONS,
    headTimeoutMs: env.GATEWAY_HEAD_TIMEOUT_MS,
    splice: env.GATEWAY_SPLICE,
  };
}

/** The gateway alone reads one more: how many processes serve its ports (the embedded gateway
 * of `npm start` is one process). */
const gatewayOnlySchema = gatewayEnvSchema
  .extend({
    GATEWAY_WORKERS: z.coerce
      .number({ error: "must be a number of processes" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(256, "must be at most 256")
      .optional(),
  })
  .superRefine((env, ctx) => {
    checkGatewayEnv(env, ctx);
    if ((env.GATEWAY_WORKERS ?? 1) > 1 && !env.DATABASE_URL)
      ctx.addIssue({
        code: "custom",
        path: ["GATEWAY_WORKERS"],
        message: "more than 1 needs DATABASE_URL (PostgreSQL): the embedded database serves one process",
      });
  });

export type StandaloneGatewayEnv = z.output<typeof gatewayOnlySchema>;

/** The gateway's variables when it runs alone; a wrong value throws a ConfigError naming it. */
export function parseGatewayEnv(env: Env): StandaloneGatewayEnv {
  return parseEnv(gatewayOnlySchema, env);
}

/** GATEWAY_WORKERS, or by default one process per core on PostgreSQL (the embedded database
 * serves one process, so one there). */
export function workerCount(env: StandaloneGatewayEnv, cores: number): number {
  return env.GATEWAY_WORKERS ?? (env.DATABASE_URL ? cores : 1);
}

/** Reads the gateway's environment once; a wrong value throws a ConfigError naming the variable.
 * GATEWAY_TLS_CERT/_KEY hold PEM text or a path to a PEM file. */
export function loadGatewayConfig(env: Env): GatewayConfig {
  return gatewayConfigFrom(parseGatewayEnv(env));
}
