import type { IncomingMessage, ServerResponse } from "node:http";
import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet, { type HelmetOptions } from "helmet";

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

/** What every response carries. An API response is data, never a page: OWASP's REST guidance
 * is a CSP that allows nothing and no framing, nosniff, and no referrer. */
const API_HEADERS = [
  "cross-origin-resource-policy",
  "referrer-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-frame-options",
];
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Security headers and CORS for APP_URL only (no cookies, so no credentials). HTML documents (the
 * SPA, /docs, the built-in pages) get helmet's whole set with the SPA's policy; everything else
 * gets the few headers that matter for data.
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
  const apiHeaders: Record<string, string> = { "content-security-policy": API_CSP };
  for (const name of API_HEADERS) {
    const value = documentHeaders[name];
    if (value !== undefined) apiHeaders[name] = value;
  }

  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(apiHeaders);
    done();
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    const type = reply.getHeader("content-type");
    if (typeof type === "string" && type.startsWith("text/html")) reply.headers(documentHeaders);
    done(null, payload);
  });

  await app.register(cors, {
    origin: [appUrl.origin],
    credentials: false,
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
    allowedHeaders: ["Authorization", "Content-Type", "X-Skip-Auth", "X-Request-Id"],
    exposedHeaders: ["X-Request-Id"],
    maxAge: 600,
  });
}

export default fp(securityPlugin, { name: "security" });
