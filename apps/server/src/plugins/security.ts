import type { IncomingMessage, ServerResponse } from "node:http";
import { containsNul, NUL_IN_TEXT } from "@bytetoll/contracts";
import { hashesEqual, hashSecret } from "@bytetoll/db";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet, { type HelmetOptions } from "helmet";
import { AppError } from "../errors.ts";

/**
 * The headers helmet would set, worked out once. Our policy has no per-request part (no nonces),
 * so running helmet's middleware on every response (it re-parses the CSP each time — a tenth of
 * a small request's CPU) would only repeat this.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/** What a JSON response carries. An API response is data, never a page: OWASP's REST guidance
 * is a CSP that allows nothing and no framing, nosniff, and no referrer. */
const API_HEADERS = [
  "cross-origin-resource-policy",
  "referrer-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-frame-options",
];
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Vite's content-hashed scripts and styles: what a browser checks on them is their type. */
const HASHED_ASSETS = "/assets/";
const ASSET_HEADERS = ["cross-origin-resource-policy", "strict-transport-security", "x-content-type-options"];
/** Set on every response before the route runs, meaningful on pages and data only. */
const DOCUMENT_ONLY = ["content-security-policy", "x-frame-options", "referrer-policy"];

const PREFLIGHT_HEADERS = {
  "access-control-allow-methods": "GET, HEAD, POST, PUT, PATCH, DELETE",
  "access-control-allow-headers": "Authorization, Content-Type, X-Skip-Auth, X-Request-Id",
  "access-control-max-age": "600",
};

const METRICS_PATH = "/metrics";

function isLoopback(ip: string): boolean {
  return ip === "::1" || /^(::ffff:)?127\./.test(ip);
}

/** /metrics tells anyone who reads it about traffic and customers: only a client on this host
 * (by its address after TRUST_PROXY, so not everyone a local reverse proxy forwards) or one
 * holding METRICS_TOKEN may read it. */
function mayReadMetrics(ip: string, authorization: string | undefined, token: string | undefined): boolean {
  if (isLoopback(ip)) return true;
  if (!token || !authorization) return false;
  return hashesEqual(hashSecret(authorization), hashSecret(`Bearer ${token}`));
}

/**
 * Security headers and CORS. JSON answers get the few headers that matter for data; everything
 * else (the SPA, /docs, the built-in pages, static files) helmet's whole set with the SPA's policy.
 *
 * CORS allows the one origin the dashboard runs on, without credentials (the API takes bearer
 * tokens, never cookies); another origin gets no Access-Control-Allow-Origin, so browsers keep
 * its pages from reading our answers. (@fastify/cors did the same but merged its whole option
 * object on every request, a twentieth of a small request's CPU for a policy that never changes.)
 */
async function securityPlugin(app: FastifyInstance) {
  const appUrl = new URL(app.config.APP_URL);
  const secure = appUrl.protocol === "https:";
  const socketOrigin = `${secure ? "wss" : "ws"}://${appUrl.host}`;

  const documentHeaders = helmetHeaders({
    // The built SPA is module scripts and stylesheets from this origin; Socket.IO connects back
    // to it; QR codes are data: images. Nothing is loaded from elsewhere.
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        "connect-src": ["'self'", socketOrigin],
        "img-src": ["'self'", "data:"],
        "frame-ancestors": ["'none'"],
        // On plain-http local installs an upgrade would break every asset request.
        "upgrade-insecure-requests": secure ? [] : null,
      },
    },
    strictTransportSecurity: secure,
    crossOriginEmbedderPolicy: false,
  });
  const apiHeaders: Record<string, string> = { "content-security-policy": API_CSP, vary: "Origin" };
  const assetHeaders: Record<string, string> = {};
  for (const name of ASSET_HEADERS) {
    const value = documentHeaders[name];
    if (value !== undefined) assetHeaders[name] = value;
  }
  const corsHeaders = {
    "access-control-allow-origin": appUrl.origin,
    "access-control-expose-headers": "X-Request-Id",
  };
  for (const name of API_HEADERS) {
    const value = documentHeaders[name];
    if (value !== undefined) apiHeaders[name] = value;
  }

  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(apiHeaders);
    if (request.headers.origin === appUrl.origin) reply.headers(corsHeaders);
    done();
  });
  // Only JSON is data. The build's hashed scripts and styles are no documents either: a page's
  // policy means nothing on them, and the fifteen files of a first visit would carry ~10 KB of it.
  // Everything else — pages, other files, and 304s, which carry no content type yet whose headers
  // the browser copies onto the page it kept — gets the document's set.
  app.addHook("onSend", (request, reply, payload, done) => {
    const type = reply.getHeader("content-type");
    if (typeof type === "string" && type.startsWith("application/json")) return done(null, payload);
    if (request.url.startsWith(HASHED_ASSETS) && reply.statusCode === 200) {
      for (const name of DOCUMENT_ONLY) reply.removeHeader(name);
      reply.headers(assetHeaders);
    } else {
      reply.headers(documentHeaders);
    }
    done(null, payload);
  });

  app.addHook("onRequest", (request, _reply, done) => {
    if (request.routeOptions.url !== METRICS_PATH) return done();
    if (mayReadMetrics(request.ip, request.headers.authorization, app.config.METRICS_TOKEN)) return done();
    done(
      new AppError(
        403,
        "Metrics are served to this host or with the metrics token (METRICS_TOKEN).",
        "forbidden",
      ),
    );
  });

  // No text input may carry NUL: PostgreSQL refuses it mid-query, so stop it before any handler.
  app.addHook("preValidation", (request, _reply, done) => {
    const { body, query, params } = request;
    if (containsNul(body) || containsNul(query) || containsNul(params))
      return done(new AppError(400, NUL_IN_TEXT, "invalid_text"));
    done();
  });

  // Preflights, for every path.
  app.options("*", { schema: { hide: true } }, (request, reply) => {
    if (request.headers.origin === appUrl.origin && request.headers["access-control-request-method"]) {
      reply.headers(PREFLIGHT_HEADERS);
    }
    return reply.code(204).header("content-length", "0").send();
  });
}

export default fp(securityPlugin, { name: "security" });
