import {
  errorResponse,
  mintedProxyListLinkResponse,
  type ProxyListEntry,
  type ProxyListOptions,
  proxyListJsonResponse,
  proxyListLinkParams,
  proxyListLinkRequestSchema,
  proxyListLinksResponse,
  proxyListOptionsSchema,
  proxyListSharedParams,
} from "@bytetoll/contracts";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { type App, requireUser } from "../../types.ts";
import { proxyListText } from "./proxy-list.ts";
import { createProxyListService } from "./proxy-list-service.ts";
import { createCredentialsService } from "./service.ts";

const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 429: errorResponse };
/** The line formats are text/plain, one proxy a line; json is the API's usual envelope. */
const listResponse = z.union([z.string(), proxyListJsonResponse]);

function send(options: ProxyListOptions, entries: ProxyListEntry[]) {
  if (options.format === "json") return { success: true as const, data: entries };
  return proxyListText(entries, options.format);
}

/** docs/product.md#proxy-list: the list, and download URLs a scraper fleet fetches without signing in. */
export async function proxyListRoutes(app: App) {
  const { config } = app;
  const service = createProxyListService({
    database: app.database,
    appSecret: config.JWT_SECRET,
    appUrl: config.APP_URL,
    credentials: createCredentialsService({
      database: app.database,
      appSecret: config.JWT_SECRET,
      log: app.log,
    }),
    gateway: () => ({
      host: config.GATEWAY_HOST,
      httpPort: config.GATEWAY_HTTP_PORT,
      socksPort: config.gateway.socksPort,
    }),
  });

  app.get(
    "/credentials/proxy-list",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["credentials"],
        summary:
          "Proxy lines to paste: text/plain one a line (format json: an array), sticky lines each their own session",
        security: [{ bearer: [] }],
        querystring: proxyListOptionsSchema,
        response: { 200: listResponse, ...errors },
      },
    },
    async (request, reply) => {
      const options = request.query;
      const entries = await service.entries(requireUser(request).id, options);
      if (options.format !== "json") reply.type("text/plain; charset=utf-8");
      return send(options, entries);
    },
  );

  app.get(
    "/credentials/proxy-list/links",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["credentials"],
        summary: "The account's proxy-list download URLs (their secrets are shown only when minted)",
        security: [{ bearer: [] }],
        response: { 200: proxyListLinksResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await service.listLinks(requireUser(request).id) }),
  );

  app.post(
    "/credentials/proxy-list/links",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["credentials"],
        summary:
          "Mint a download URL for a list with these options; it works without signing in until revoked",
        security: [{ bearer: [] }],
        body: proxyListLinkRequestSchema,
        response: { 200: mintedProxyListLinkResponse, 409: errorResponse, ...errors },
      },
    },
    async (request) => {
      const { label, ...options } = request.body;
      return {
        success: true as const,
        data: await service.mintLink(requireUser(request).id, options, label),
      };
    },
  );

  app.delete(
    "/credentials/proxy-list/links/:id",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["credentials"],
        summary: "Revoke a download URL: it answers 404 from then on",
        security: [{ bearer: [] }],
        params: proxyListLinkParams,
        response: { 200: z.object({ success: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      await service.revokeLink(requireUser(request).id, request.params.id);
      return { success: true as const };
    },
  );

  app.get(
    "/credentials/proxy-list/shared/:secret",
    {
      config: {
        rateLimit: {
          max: 120,
          timeWindow: 60_000,
          errorResponseBuilder: () =>
            new AppError(429, "Too many list downloads. Please wait a minute.", "rate_limited"),
        },
      },
      schema: {
        tags: ["credentials"],
        summary: "A proxy list by its download URL, without signing in",
        params: proxyListSharedParams,
        response: { 200: listResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { options, entries } = await service.shared(request.params.secret);
      reply.header("cache-control", "no-store");
      if (options.format !== "json") reply.type("text/plain; charset=utf-8");
      return send(options, entries);
    },
  );
}
