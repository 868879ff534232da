import {
  connectionTestRequestSchema,
  connectionTestResponse,
  credentialsResponse,
  errorResponse,
  PROXY_TEST_SUCCEEDED,
  proxyServerResponse,
  uniqueCredentialsResponse,
} from "@bytetoll/contracts";
import { AppError } from "../../errors.ts";
import { type App, requireUser } from "../../types.ts";
import { type ConnectionTestSettings, runConnectionTest } from "./connection-test.ts";
import { createGatewayAddressResolver } from "./gateway-address.ts";
import { ipInfoRoutes } from "./ip-info-routes.ts";
import { proxyListRoutes } from "./proxy-list-routes.ts";
import { createCredentialsService } from "./service.ts";

export interface CredentialsRoutesOptions {
  /** Where the gateway started by `npm start` listens, or null when it runs elsewhere. */
  inProcessGatewayHost: string | null;
}

const HOUR = 60 * 60_000;
const CONNECTION_TEST_TIMEOUT_MS = 10_000;

const perIp = (max: number, timeWindow: number, message: string) => ({
  rateLimit: { max, timeWindow, errorResponseBuilder: () => new AppError(429, message, "rate_limited") },
});

const errors = { 400: errorResponse, 401: errorResponse, 429: errorResponse };

export async function credentialsRoutes(app: App, options: CredentialsRoutesOptions) {
  const { config } = app;
  const service = createCredentialsService({
    database: app.database,
    appSecret: config.JWT_SECRET,
    log: app.log,
  });
  const testSettings: ConnectionTestSettings = {
    gatewayHost: config.GATEWAY_HOST,
    httpPort: config.GATEWAY_HTTP_PORT,
    httpsPort: config.GATEWAY_HTTPS_PORT,
    inProcessDialHost: options.inProcessGatewayHost,
    verifyProxyCertificate: Boolean(config.GATEWAY_TLS_CERT),
    ipInfoUrl: config.IPINFO_URL,
    timeoutMs: CONNECTION_TEST_TIMEOUT_MS,
  };

  await app.register(ipInfoRoutes);
  await app.register(proxyListRoutes);

  const gatewayAddress = createGatewayAddressResolver(config.GATEWAY_HOST);
  app.get(
    "/gateway",
    {
      schema: {
        tags: ["credentials"],
        summary: "The proxy server customers connect to: host, fixed IP and ports",
        response: { 200: proxyServerResponse },
      },
    },
    async () => ({
      success: true as const,
      data: {
        host: config.GATEWAY_HOST,
        ip: await gatewayAddress(),
        http_port: config.GATEWAY_HTTP_PORT,
        https_port: config.GATEWAY_HTTPS_PORT,
        socks_port: config.gateway.socksPort,
      },
    }),
  );

  app.get(
    "/credentials/latest",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["credentials"],
        summary: "The caller's proxy credentials (created on first read)",
        security: [{ bearer: [] }],
        response: { 200: credentialsResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await service.latest(requireUser(request).id) }),
  );

  app.post(
    "/credentials/regenerate",
    {
      preHandler: app.authenticate,
      config: perIp(30, HOUR, "Too many password changes. Please wait a while and try again."),
      schema: {
        tags: ["credentials"],
        summary: "New proxy password, same username; the old one stops working within seconds",
        security: [{ bearer: [] }],
        response: { 200: credentialsResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await service.regenerate(requireUser(request).id) }),
  );

  app.get(
    "/credentials/unique",
    {
      config: perIp(10, HOUR, "Too many temporary credentials requested. Please try again later."),
      schema: {
        tags: ["credentials"],
        summary: "A temporary credential set for an anonymous visitor (claimed by signing up with it)",
        response: { 200: uniqueCredentialsResponse, 429: errorResponse },
      },
    },
    async () => ({ success: true as const, data: await service.createAnonymous() }),
  );

  app.post(
    "/credentials/test",
    {
      config: perIp(30, 60_000, "Too many connection tests. Please wait a minute and try again."),
      schema: {
        tags: ["credentials"],
        summary: "Fetch IP information through the configured gateway with these credentials",
        body: connectionTestRequestSchema,
        response: { 200: connectionTestResponse, 403: errorResponse, 422: errorResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: PROXY_TEST_SUCCEEDED,
      data: await runConnectionTest(testSettings, request.body, { isTemporary: service.isTemporary }),
    }),
  );
}
