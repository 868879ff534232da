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

/** Security headers on every response and CORS for APP_URL only (no cookies, so no credentials). */
async function securityPlugin(app: FastifyInstance) {
  const appUrl = new URL(app.config.APP_URL);
  const secure = appUrl.protocol === "https:";
  const socketOrigin = `${secure ? "wss" : "ws"}://${appUrl.host}`;

  const headers = helmetHeaders({
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
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
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
