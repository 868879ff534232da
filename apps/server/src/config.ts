import { isIP } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isValidEmail, normalizeEmail } from "@bytetoll/contracts";
import { randomSecret, secretFile } from "@bytetoll/db";
import {
  ConfigError,
  checkGatewayEnv,
  gatewayConfigFrom,
  gatewayEnvSchema,
  IP_INFO_HOST,
  parseEnv,
  portNumber,
  urlWithProtocols,
} from "@bytetoll/egress";
import ipaddr from "ipaddr.js";
import { z } from "zod";

/** Requests per minute per user or address on every API route without a tighter limit. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

/** The built-in integration guide (GET), the default target of the SDK and MCP links. Under
 * /docs beside the API reference, which Vite's dev server already forwards to the API. */
export const INTEGRATION_GUIDE_PATH = "/docs/integrations";

/** Where `npm start` finds the built SPA unless WEB_DIST_DIR says otherwise. */
const defaultWebDist = fileURLToPath(new URL("../../web/dist", import.meta.url));

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((value) => value === "true" || value === "1" || value === "yes");

/** An address or address/prefix that ipaddr.js (what proxy-addr reads the list with) accepts
 * and node:net agrees is IP: node:net refuses the octal and short IPv4 forms, and the embedded
 * quads with leading zeros that ipaddr.js would read as decimal. */
function isCidr(value: string): boolean {
  const [address = "", prefix = ""] = value.split("/");
  if (isIP(address) === 0 || !/^(\d{1,3})?$/.test(prefix)) return false;
  return ipaddr.isValid(value) || ipaddr.isValidCIDR(value);
}

/** Named ranges Fastify's trustProxy (proxy-addr) understands besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const TRUST_PROXY_FORMS =
  "a number of proxy hops (1) or a comma list of the load balancers' addresses (10.0.3.7,10.0.3.8)";

/**
 * Which X-Forwarded-For entries to believe: false (none), a number of hops counted from the
 * right, or the addresses of the proxies in front. `true` means one hop: believing every entry
 * would let a client name any address it likes.
 */
const trustProxy = z
  .string()
  .default("false")
  .transform((value, ctx): false | number | string[] => {
    const lower = value.trim().toLowerCase();
    if (["false", "no", "0"].includes(lower)) return false;
    if (["true", "yes"].includes(lower)) return 1;
    if (/^\d+$/.test(lower)) return Number(lower);
    const entries = lower
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (entries.length > 0 && entries.every((entry) => isCidr(entry) || PROXY_RANGE_NAMES.has(entry)))
      return entries;
    ctx.addIssue({ code: "custom", message: `must be false, ${TRUST_PROXY_FORMS}` });
    return z.NEVER;
  });

const milliseconds = (fallback: number) =>
  z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(1, "must be at least 1")
    .default(fallback);

/** ADMIN_EMAILS: a comma list of operators' e-mails, each trimmed and lower-cased as accounts are
 * keyed (docs/product.md#operators); one malformed entry stops the start naming it. */
const adminEmails = z
  .string()
  .default("")
  .transform((value, ctx) => {
    const entries = value.split(",").map(normalizeEmail).filter(Boolean);
    const bad = entries.find((entry) => !isValidEmail(entry));
    if (bad === undefined) return [...new Set(entries)];
    ctx.addIssue({ code: "custom", message: `"${bad}" is not an e-mail address (a comma list of e-mails)` });
    return z.NEVER;
  });

/** The ports the server listens on and tells customers about: never 0 ("any free port"). */
const port = (fallback: number) => portNumber(1).default(fallback);

/** Every variable of `npm start`: the embedded gateway's, and the server's own. Empty strings
 * count as unset. */
const envSchema = gatewayEnvSchema
  .extend({
    NODE_ENV: z
      .enum(["development", "production", "test"], { error: "must be development, production or test" })
      .default("development"),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
        error: "must be one of fatal, error, warn, info, debug, trace, silent",
      })
      .default("info"),
    /** Unset: pretty on a terminal, JSON lines anywhere else (lib/log-output.ts). */
    LOG_FORMAT: z
      .string()
      .transform((value) => value.trim().toLowerCase())
      .pipe(z.enum(["json", "pretty"], { error: "must be json or pretty" }))
      .optional(),
    PORT: port(3000),
    APP_URL: urlWithProtocols(["http:", "https:"]).optional(),
    REDIS_URL: urlWithProtocols(["redis:", "rediss:"]).optional(),
    JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    SMTP_URL: urlWithProtocols(["smtp:", "smtps:"]).optional(),
    MAIL_FROM: z.string().optional(),
    ADMIN_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    // Operators: these accounts' sign-in sessions open the admin API and the console at /admin.
    ADMIN_EMAILS: adminEmails,
    // Whether operators need a second factor before the console and the admin API answer them;
    // unset: required in production, optional elsewhere. ADMIN_TOKEN is never asked for one.
    ADMIN_2FA: z.enum(["required", "optional"], { error: "must be required or optional" }).optional(),
    CRYPTO_PROVIDER: z
      .enum(["sandbox", "nowpayments"], { error: "must be sandbox or nowpayments" })
      .default("sandbox"),
    NOWPAYMENTS_API_KEY: z.string().optional(),
    NOWPAYMENTS_IPN_SECRET: z.string().optional(),
    NOWPAYMENTS_API_URL: urlWithProtocols(["http:", "https:"]).default("https://api.nowpayments.io/v1"),
    STRIPE_SECRET_KEY: z.string().optional(),
    STRIPE_WEBHOOK_SECRET: z.string().optional(),
    // The gateway's public host name, shown to customers; GATEWAY_BIND is where it listens.
    GATEWAY_HOST: z.string().optional(),
    GATEWAY_HTTP_PORT: port(8080),
    GATEWAY_HTTPS_PORT: port(8443),
    IPINFO_URL: urlWithProtocols(["http:", "https:"]).optional(),
    FREE_GB: z.coerce.number({ error: "must be a number" }).min(0, "must be 0 or more").default(1),
    // Where the SPA lives, the links the page shows, and proxy trust.
    WEB_DIST_DIR: z.string().default(defaultWebDist),
    DOCS_URL: urlWithProtocols(["http:", "https:"]).optional(),
    SUPPORT_URL: z.string().optional(),
    TERMS_URL: urlWithProtocols(["http:", "https:"]).optional(),
    PRIVACY_URL: urlWithProtocols(["http:", "https:"]).optional(),
    // Where the Promotions share links point (the marketing site).
    MARKETING_URL: urlWithProtocols(["http:", "https:"]).optional(),
    // The Connect page's SDK and MCP links; an operator who publishes packages points them there.
    NODE_SDK_URL: urlWithProtocols(["http:", "https:"]).optional(),
    PHP_SDK_URL: urlWithProtocols(["http:", "https:"]).optional(),
    MCP_SERVER_URL: urlWithProtocols(["http:", "https:"]).optional(),
    // Who issues the receipts of paid orders: the operator's name and postal address (a newline,
    // or the two characters \n, starts a new line of the address).
    OPERATOR_NAME: z.string().trim().min(1, "must not be empty").max(200).default("ByteToll"),
    OPERATOR_ADDRESS: z.string().trim().max(500).default(""),
    OPERATOR_VAT_ID: z.string().trim().max(50).default(""), // on invoices and credit notes
    TRUST_PROXY: trustProxy,
    // Where the API (and the embedded gateway unless GATEWAY_BIND says otherwise) listens:
    // loopback in development, where /dev/outbox hands out login links, all interfaces in production.
    HOST: z.string().optional(),
    // /metrics answers loopback clients, and others that send this as a bearer token.
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    // Connection limits of the API listener: open sockets, and how long a client may take to send
    // a request's headers and its whole request.
    MAX_CONNECTIONS: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(10_000),
    HEADERS_TIMEOUT_MS: milliseconds(15_000),
    REQUEST_TIMEOUT_MS: milliseconds(30_000),
    // Webhooks: the first retry's delay (doubling up to an hour, for 24 h) and how often each
    // instance looks for due deliveries.
    WEBHOOK_RETRY_BASE_MS: milliseconds(30_000),
    WEBHOOK_POLL_MS: milliseconds(1_000),
    // Background jobs: how long an instance's claim on a running job holds unless renewed (a
    // crashed instance's jobs run elsewhere after this), and how often each instance looks for
    // due work.
    JOBS_LEASE_MS: milliseconds(30_000),
    JOBS_POLL_MS: milliseconds(1_000),
    // API requests per minute per signed-in user, or per address for anonymous calls, on every
    // route without a tighter limit of its own.
    RATE_LIMIT_PER_MINUTE: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(DEFAULT_RATE_LIMIT_PER_MINUTE),
    // `npm start` runs the gateway in the same process unless this is true (it runs elsewhere).
    GATEWAY_DISABLED: booleanFlag.default(false),
  })
  .superRefine((env, ctx) => {
    checkGatewayEnv(env, ctx);
    if (env.CRYPTO_PROVIDER === "nowpayments") {
      for (const key of ["NOWPAYMENTS_API_KEY", "NOWPAYMENTS_IPN_SECRET"] as const) {
        if (!env[key])
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: "is required when CRYPTO_PROVIDER=nowpayments",
          });
      }
    }
    if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["HEADERS_TIMEOUT_MS"],
        message: "must not be greater than REQUEST_TIMEOUT_MS",
      });
    }
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_WEBHOOK_SECRET"],
        message: "is required when STRIPE_SECRET_KEY is set",
      });
    }
  });

export type Config = ReturnType<typeof finish>;

export { ConfigError };

function finish(env: z.output<typeof envSchema>, jwtSecret: string) {
  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  const appHost = new URL(appUrl).hostname;
  return {
    ...env,
    APP_URL: appUrl,
    DATA_DIR: path.resolve(env.DATA_DIR ?? "./data"),
    WEB_DIST_DIR: path.resolve(env.WEB_DIST_DIR),
    JWT_SECRET: jwtSecret,
    MAIL_FROM:
      env.MAIL_FROM ?? `ByteToll <no-reply@${appHost.includes(".") ? appHost : "localhost.localdomain"}>`,
    GATEWAY_HOST: env.GATEWAY_HOST ?? appHost,
    // Default: a host the gateway answers itself with its exit address, so the connection test
    // needs no internet and no customer-reachable service (decision 023).
    IPINFO_URL: env.IPINFO_URL ?? `http://${IP_INFO_HOST}/`,
    DOCS_URL: env.DOCS_URL ?? `${appUrl}/docs`,
    SUPPORT_URL: env.SUPPORT_URL ?? supportDefault(env.ADMIN_EMAILS, appUrl),
    SUPPORT_CONTACT: supportContact(env.SUPPORT_URL, env.ADMIN_EMAILS, appUrl),
    TERMS_URL: env.TERMS_URL ?? `${appUrl}/terms`,
    PRIVACY_URL: env.PRIVACY_URL ?? `${appUrl}/privacy`,
    MARKETING_URL: env.MARKETING_URL ?? appUrl,
    NODE_SDK_URL: env.NODE_SDK_URL ?? `${appUrl}${INTEGRATION_GUIDE_PATH}#nodejs`,
    PHP_SDK_URL: env.PHP_SDK_URL ?? `${appUrl}${INTEGRATION_GUIDE_PATH}#php`,
    MCP_SERVER_URL: env.MCP_SERVER_URL ?? `${appUrl}${INTEGRATION_GUIDE_PATH}#mcp`,
    HOST: env.HOST ?? (env.NODE_ENV === "production" ? "0.0.0.0" : "127.0.0.1"),
    ADMIN_2FA: env.ADMIN_2FA ?? (env.NODE_ENV === "production" ? "required" : "optional"),
    isProduction: env.NODE_ENV === "production",
    /** The embedded gateway's settings, from the same variables as for the gateway alone. The
     * API's PORT is a port of this process, so neither the embedded gateway nor the learner's
     * prober ever dials it (decision 023). */
    gateway: { ...gatewayConfigFrom(env), processPorts: [env.PORT] },
  };
}

/** Support should reach a person: the first operator's mailbox when there is one, else the docs. */
function supportDefault(adminEmails: readonly string[], appUrl: string): string {
  return adminEmails[0] ? `mailto:${adminEmails[0]}` : `${appUrl}/docs`;
}

/** Whom a disabled account is told to write to: SUPPORT_URL's address (without "mailto:"), or
 * the first operator's e-mail, or the support page. */
function supportContact(
  supportUrl: string | undefined,
  adminEmails: readonly string[],
  appUrl: string,
): string {
  const url = supportUrl ?? supportDefault(adminEmails, appUrl);
  return url.toLowerCase().startsWith("mailto:") ? url.slice("mailto:".length).split("?")[0] || url : url;
}

/** Reads DATA_DIR/jwt-secret, creating it on first start (secretFile). */
function ensureJwtSecretFile(dataDir: string): string {
  const { file, secret } = secretFile(dataDir, "jwt-secret");
  if (secret.length < 32)
    throw new ConfigError([`JWT_SECRET: the file ${file} holds fewer than 32 characters`]);
  return secret;
}

/**
 * Parses the environment once. No side effects except creating DATA_DIR/jwt-secret when
 * JWT_SECRET is not given. Throws ConfigError naming each wrong variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): Config {
  const parsed = parseEnv(envSchema, env);
  const jwtSecret = parsed.JWT_SECRET ?? ensureJwtSecretFile(path.resolve(parsed.DATA_DIR ?? "./data"));
  return finish(parsed, jwtSecret);
}
