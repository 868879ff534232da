import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

const BUILD_MISSING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ByteToll</title></head>
<body><h1>ByteToll</h1><p>The web app has not been built yet. Run <code>npm run build</code>
(or <code>npm start</code>, which builds it) and reload this page.</p></body></html>`;

/** Vite puts content-hashed files under /assets: safe to cache for a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** Paths of files the build compresses (see apps/web/precompress.ts). */
const PRECOMPRESSED = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

function acceptsHtml(accept: string | undefined): boolean {
  return (accept ?? "").includes("text/html");
}

/** Pages of the SPA whose paths the API answers too: the operator's console (/admin/customers …)
 * beside the admin API, the Webhooks page beside GET /webhooks and the Sub-users page beside GET
 * /subusers. A browser opening one asks for HTML and gets the SPA; the SPA's own calls (Accept:
 * application/json) and scripts reach the API. */
const PAGES_BESIDE_API = /^\/(?:admin(?:[/?]|$)|(?:webhooks|subusers)(?:\?|$))/;

/**
 * Serves the built SPA from the same origin. Unknown GETs that accept HTML get index.html (the
 * SPA routes on the client and shows its own 404 screen); every other unknown path is a JSON 404.
 */
async function spaPlugin(app: FastifyInstance) {
  const distDir = app.config.WEB_DIST_DIR;
  const hasBuild = existsSync(path.join(distDir, "index.html"));

  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      // "/" is the dashboard route: the SPA's index.html.
      index: "index.html",
      cacheControl: false,
      // The build writes .br and .gz beside each compressible file; the smallest one the browser
      // accepts is sent (the hook below tells caches the answer depends on Accept-Encoding).
      preCompressed: true,
      setHeaders(res, filePath) {
        const relative = path.relative(distDir, filePath);
        res.setHeader("cache-control", relative.startsWith(`assets${path.sep}`) ? IMMUTABLE : "no-cache");
      },
    });
  }

  app.addHook("onSend", (request, reply, payload, done) => {
    if (PRECOMPRESSED.test(request.url.split("?")[0] ?? "") || reply.getHeader("content-encoding")) {
      const vary = reply.getHeader("vary");
      reply.header("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    }
    done(null, payload);
  });

  app.setNotFoundHandler((request, reply) => {
    const isRead = request.method === "GET" || request.method === "HEAD";
    if (isRead && acceptsHtml(request.headers.accept)) {
      if (hasBuild) return reply.header("cache-control", "no-cache").sendFile("index.html");
      return reply.type("text/html; charset=utf-8").send(BUILD_MISSING_PAGE);
    }
    return reply.code(404).send({ success: false, message: "Not found" });
  });
}

export default fp(spaPlugin, { name: "spa" });

/** Sends the SPA to a browser opening one of PAGES_BESIDE_API. Registered before the API's routes
 * (a hook reaches only the routes registered after it); the spa plugin provides sendFile. */
async function spaPagesBesideApi(app: FastifyInstance) {
  if (!existsSync(path.join(app.config.WEB_DIST_DIR, "index.html"))) return;
  app.addHook("onRequest", async (request, reply) => {
    const isRead = request.method === "GET" || request.method === "HEAD";
    if (isRead && PAGES_BESIDE_API.test(request.url) && acceptsHtml(request.headers.accept))
      return reply.header("cache-control", "no-cache").sendFile("index.html");
  });
}

export const spaPagesBesideApiPlugin = fp(spaPagesBesideApi, { name: "spa-pages-beside-api" });
