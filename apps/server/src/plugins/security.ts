import { containsNul, NUL_IN_TEXT } from "@bytetoll/contracts";
import { hashesEqual, hashSecret } from "@bytetoll/db";
import cors from "@fastify/cors";
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../errors.ts";

/** Vite's content-hashed scripts and styles: what a browser checks on them is their type. */
const HASHED_ASSETS = "/assets/";
/** helmet's values for the few headers that matter on data and on the build's hashed files. */
const STRICT_TRANSPORT = "max-age=31536000; includeSubDomains";
const ASSET_HEADERS = {
  "cross-origin-resource-policy": "same-origin",
  "x-content-type-options": "nosniff",
};
/** An API response is data, never a page: OWASP's REST guidance is a CSP that allows nothing and
 * no framing, nosniff, and no referrer. */
const API_HEADERS = {
  ...ASSET_HEADERS,
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "x-frame-options": "SAMEORIGIN",
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
 * Security headers and CORS. JSON answers get the few headers that matter for data, the build's
 * hashed files fewer still; everything else (the SPA, /docs, the built-in pages, other files)
 * helmet's whole set with the SPA's policy, through @fastify/helmet's `reply.helmet()`.
 *
 * CORS (@fastify/cors) allows the one origin the dashboard runs on, without credentials (the API
 * takes bearer tokens, never cookies); another origin gets no Access-Control-Allow-Origin, so
 * browsers keep its pages from reading our answers, and its preflights are not answered.
 */
async function securityPlugin(app: FastifyInstance) {
  const appUrl = new URL(app.config.APP_URL);
  const secure = appUrl.protocol === "https:";
  const socketOrigin = `${secure ? "wss" : "ws"}://${appUrl.host}`;

  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin === appUrl.origin),
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
    allowedHeaders: ["Authorization", "Content-Type", "X-Skip-Auth", "X-Request-Id"],
    exposedHeaders: ["X-Request-Id"],
    maxAge: 600,
    // A preflight from APP_URL is answered whatever it asks; the browser checks the answer.
    strictPreflight: false,
  });
  await app.register(helmet, {
    // Applied per response below: which set a response gets depends on what it turns out to be.
    global: false,
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
  const apiHeaders: Record<string, string> = secure
    ? { ...API_HEADERS, "strict-transport-security": STRICT_TRANSPORT }
    : API_HEADERS;
  const assetHeaders: Record<string, string> = secure
    ? { ...ASSET_HEADERS, "strict-transport-security": STRICT_TRANSPORT }
    : ASSET_HEADERS;

  // Only JSON is data. The build's hashed scripts and styles are no documents either: a page's
  // policy means nothing on them, and the fifteen files of a first visit would carry ~10 KB of it.
  // Everything else — pages, other files, and 304s, which carry no content type yet whose headers
  // the browser copies onto the page it kept — gets the document's set.
  app.addHook("onSend", (request, reply, payload, done) => {
    const type = reply.getHeader("content-type");
    if (typeof type === "string" && type.startsWith("application/json")) reply.headers(apiHeaders);
    else if (request.url.startsWith(HASHED_ASSETS) && reply.statusCode === 200) reply.headers(assetHeaders);
    // reply.helmet is set by @fastify/helmet's onRequest hook, which a request refused by an
    // earlier hook never reaches; such an answer is JSON and handled above.
    else reply.helmet?.();
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
}

export default fp(securityPlugin, { name: "security" });
