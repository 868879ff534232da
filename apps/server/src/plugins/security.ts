import cors from "@fastify/cors";
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** Security headers on every response and CORS for APP_URL only (no cookies, so no credentials). */
async function securityPlugin(app: FastifyInstance) {
  const appUrl = new URL(app.config.APP_URL);
  const secure = appUrl.protocol === "https:";
  const socketOrigin = `${secure ? "wss" : "ws"}://${appUrl.host}`;

  await app.register(helmet, {
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
    hsts: secure,
    crossOriginEmbedderPolicy: false,
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
