import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { Database } from "@bytetoll/db";
import type { GatewayHost } from "@bytetoll/egress";
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config.ts";
import { LOG_REDACTION } from "./lib/log-output.ts";
import { billingRoutes } from "./modules/account/billing-routes.ts";
import { profileRoutes } from "./modules/account/profile-routes.ts";
import { accountRoutes } from "./modules/account/routes.ts";
import { adminRoutes } from "./modules/admin/routes.ts";
import { allowlistRoutes } from "./modules/allowlist/index.ts";
import { apiTokenRoutes } from "./modules/api-token/routes.ts";
import { scopedTokenRoutes } from "./modules/api-token/scoped-routes.ts";
import { authRoutes } from "./modules/auth/routes.ts";
import { autoTopupPlugin } from "./modules/auto-topup/index.ts";
import balanceAlertsPlugin from "./modules/balance-alerts/plugin.ts";
import { credentialsRoutes } from "./modules/credentials/routes.ts";
import dealsPlugin from "./modules/deals/plugin.ts";
import { dealRoutes } from "./modules/deals/routes.ts";
import { devOutboxRoutes } from "./modules/dev-outbox/routes.ts";
import { downloadsRoutes } from "./modules/downloads/routes.ts";
import { healthRoutes } from "./modules/health/routes.ts";
import intelligencePlugin from "./modules/intelligence/plugin.ts";
import { jobsPlugin } from "./modules/jobs/index.ts";
import { invoiceRoutes } from "./modules/orders/invoice-routes.ts";
import ordersPlugin from "./modules/orders/plugin.ts";
import { orderRoutes } from "./modules/orders/routes.ts";
import settlementPlugin from "./modules/payments/plugin.ts";
import type { PaymentsOptions } from "./modules/payments/providers.ts";
import { paymentRoutes } from "./modules/payments/routes.ts";
import { legalPlaceholderRoutes } from "./modules/public-config/legal-pages.ts";
import { publicConfigRoutes } from "./modules/public-config/routes.ts";
import { subuserLimitAlertsPlugin, subusersRoutes } from "./modules/subusers/index.ts";
import { teamPlugin, teamRoutes } from "./modules/team/index.ts";
import { twoFactorRoutes } from "./modules/two-factor/index.ts";
import { usageRoutes } from "./modules/usage/routes.ts";
import { webhooksPlugin } from "./modules/webhooks/index.ts";
import apiDocsPlugin from "./plugins/api-docs.ts";
import authPlugin from "./plugins/auth.ts";
import changeFeedPlugin from "./plugins/change-feed.ts";
import errorsPlugin, { frameworkErrors } from "./plugins/errors.ts";
import { createMailer, type Mailer } from "./plugins/mail.ts";
import moneyEventsPlugin from "./plugins/money-events.ts";
import paymentsPlugin from "./plugins/payments.ts";
import rateLimitPlugin from "./plugins/rate-limit.ts";
import realtimePlugin from "./plugins/realtime.ts";
import securityPlugin from "./plugins/security.ts";
import spaPlugin, { spaPagesBesideApiPlugin } from "./plugins/spa.ts";
import type { App } from "./types.ts";

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Defaults to SMTP when SMTP_URL is set, else the dev outbox. A given mailer is not closed. */
  mailer?: Mailer;
  /** A pino logger, or false for none; default: pino at LOG_LEVEL. */
  logger?: FastifyBaseLogger | boolean;
  /** Address of the gateway `npm start` runs in this process (the connection test dials it
   * directly); absent when the gateway runs elsewhere. */
  inProcessGatewayHost?: string;
  /** The gateway app's implementation, handed in by whoever assembles the process (the
   * server names no gateway code); without it no exit can be tested and nothing is probed. */
  gatewayHost?: GatewayHost;
  /** Payment provider overrides (tests point Stripe's client at a local stand-in). */
  payments?: PaymentsOptions;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Honours a caller's sane x-request-id so logs correlate across hops; otherwise a new uuid. */
function requestId(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}

function loggerOptions(config: Config, logger: BuildAppOptions["logger"]) {
  if (logger === false) return { logger: false };
  if (logger === true || logger === undefined) {
    // Our serializer takes Fastify's request and returns its usual fields, secrets left out.
    return { logger: { level: config.LOG_LEVEL, ...LOG_REDACTION } as FastifyServerOptions["logger"] };
  }
  return { loggerInstance: logger };
}

/** A number of hops trusts that many addresses counted from the socket's peer, so the client
 * address is the right-most X-Forwarded-For entry the last trusted proxy added. (Fastify reads a
 * bare number as "trust nothing".) */
function proxyTrust(trust: Config["TRUST_PROXY"]) {
  if (typeof trust !== "number") return trust;
  return (_address: string, hop: number) => hop < trust;
}

/** Deadlines for a request's head and whole body, so a client sending a byte now and then cannot
 * hold a connection (and with many, every connection) for long. Node checks them at
 * `connectionsCheckingInterval`, so that runs often enough to cut a slow client near its deadline. */
function connectionLimits(config: Config) {
  return {
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    http: {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1_000, config.HEADERS_TIMEOUT_MS),
    },
  };
}

/** At most MAX_CONNECTIONS sockets, and none kept without a request: Node's headers deadline
 * starts at a request's first byte, so a socket that never sends one would stay open for good. It
 * gets the same deadline to start a request; after that, keep-alive and WebSocket timers rule. */
function limitConnections(app: App, config: Config) {
  app.server.maxConnections = config.MAX_CONNECTIONS;
  app.server.on("connection", (socket: Socket) => socket.setTimeout(config.HEADERS_TIMEOUT_MS));
  // Once ready: Socket.IO wraps the request listeners there are when it attaches and calls them
  // only for other requests; its long-polls must clear the deadline too.
  app.addHook("onReady", (done) => {
    app.server.on("request", (request: IncomingMessage) => request.socket.setTimeout(0));
    done();
  });
}

/** Builds the whole HTTP app; never listens (tests use inject(), server.ts listens). */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, database } = options;

  const app = Fastify({
    ...loggerOptions(config, options.logger),
    genReqId: requestId,
    requestIdHeader: false,
    trustProxy: proxyTrust(config.TRUST_PROXY),
    bodyLimit: 256 * 1024,
    frameworkErrors,
    ...connectionLimits(config),
  }).withTypeProvider<ZodTypeProvider>();
  const mailer = options.mailer ?? createMailer(config, database, app.log);
  limitConnections(app, config);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("config", config);
  app.decorate("database", database);
  app.decorate("mailer", mailer);
  app.decorate("gatewayHost", options.gatewayHost ?? null);

  // Clients (and the SPA's fetch wrapper) send Content-Type: application/json on bodiless POSTs
  // such as /auth/logout; treat an empty body as absent instead of failing the request.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text === "") return done(null, undefined);
    parseJson(request, text, done);
  });

  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  if (!options.mailer) app.addHook("onClose", () => mailer.close());

  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  await app.register(rateLimitPlugin);
  await app.register(apiDocsPlugin);
  await app.register(changeFeedPlugin);
  await app.register(authPlugin);
  await app.register(realtimePlugin);
  await app.register(teamPlugin);
  await app.register(jobsPlugin);
  await app.register(webhooksPlugin);
  await app.register(moneyEventsPlugin);
  await app.register(balanceAlertsPlugin);
  await app.register(subuserLimitAlertsPlugin);
  await app.register(paymentsPlugin, options.payments ?? {});
  await app.register(dealsPlugin);
  await app.register(ordersPlugin);
  await app.register(settlementPlugin);
  await app.register(autoTopupPlugin);
  await app.register(spaPagesBesideApiPlugin);

  await app.register(healthRoutes);
  await app.register(publicConfigRoutes);
  await app.register(legalPlaceholderRoutes);
  await app.register(authRoutes);
  await app.register(twoFactorRoutes);
  await app.register(accountRoutes);
  await app.register(profileRoutes);
  await app.register(orderRoutes);
  await app.register(billingRoutes);
  await app.register(invoiceRoutes);
  await app.register(dealRoutes);
  await app.register(paymentRoutes);
  await app.register(adminRoutes);
  await app.register(credentialsRoutes, { inProcessGatewayHost: options.inProcessGatewayHost ?? null });
  await app.register(apiTokenRoutes);
  await app.register(scopedTokenRoutes);
  await app.register(teamRoutes);
  await app.register(allowlistRoutes);
  await app.register(subusersRoutes);
  await app.register(usageRoutes);
  await app.register(downloadsRoutes);
  await app.register(intelligencePlugin);
  if (!config.isProduction && mailer.kind === "outbox") await app.register(devOutboxRoutes);

  await app.register(spaPlugin);
  return app;
}
