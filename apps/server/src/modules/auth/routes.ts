import {
  errorResponse,
  LOGIN_LINK_SENT,
  LOGIN_RATE_LIMITED,
  loginRequestSchema,
  magicCheckResponse,
  magicVerifyRequestSchema,
  magicVerifyResponse,
  messageResponse,
  okResponse,
  sendLoginLinkRequestSchema,
  sessionResponse,
  signedInResponse,
  twoFactorVerifyRequestSchema,
} from "@bytetoll/contracts";
import { AppError } from "../../errors.ts";
import { type App, requireUser } from "../../types.ts";
import { createAuthService } from "./service.ts";

const FIFTEEN_MINUTES = 15 * 60_000;

/** Per-IP limits on the open sign-in calls (the per-e-mail one is in the service). */
const perIp = (max: number, message: string) => ({
  rateLimit: {
    max,
    timeWindow: FIFTEEN_MINUTES,
    errorResponseBuilder: () => new AppError(429, message, "rate_limited"),
  },
});

const errors = { 400: errorResponse, 401: errorResponse, 429: errorResponse };
const magicCheckErrors = { ...errors, 404: errorResponse };

export async function authRoutes(app: App) {
  const service = createAuthService({
    database: app.database,
    config: app.config,
    mailer: app.mailer,
    log: app.log,
    orders: app.orders,
    deals: app.deals,
  });

  app.post(
    "/magic/check",
    {
      config: perIp(30, "Too many requests. Please wait a few minutes and try again."),
      schema: {
        tags: ["auth"],
        summary: "Check a login request (writes nothing; the account is made when the link is followed)",
        body: loginRequestSchema,
        response: { 200: magicCheckResponse, ...magicCheckErrors },
      },
    },
    async (request) => ({ success: true as const, data: await service.checkLoginRequest(request.body) }),
  );

  app.post(
    "/auth/login",
    {
      config: perIp(20, LOGIN_RATE_LIMITED),
      schema: {
        tags: ["auth"],
        summary: "E-mail a single-use login link (same reply whether or not the account exists)",
        body: sendLoginLinkRequestSchema,
        response: { 200: messageResponse, ...magicCheckErrors },
      },
    },
    async (request) => {
      await service.sendLoginLink(request.body, request.ip ?? null);
      return { success: true as const, message: LOGIN_LINK_SENT };
    },
  );

  app.post(
    "/auth/magic/verify",
    {
      config: perIp(30, "Too many requests. Please wait a few minutes and try again."),
      schema: {
        tags: ["auth"],
        summary: "Exchange the link's magic_credential for an app token",
        body: magicVerifyRequestSchema,
        response: { 200: magicVerifyResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.verifyLoginLink(request.body),
    }),
  );

  app.post(
    "/auth/2fa/verify",
    {
      config: perIp(60, "Too many requests. Please wait a few minutes and try again."),
      schema: {
        tags: ["auth"],
        summary: "Trade the sign-in challenge and a second factor for an app token",
        body: twoFactorVerifyRequestSchema,
        response: { 200: signedInResponse, ...errors, 403: errorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.verifySecondFactor(request.body, request.ip),
    }),
  );

  app.get(
    "/auth/session",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["auth"],
        summary: "The signed-in user",
        security: [{ bearer: [] }],
        response: { 200: sessionResponse, 401: errorResponse, 429: errorResponse },
      },
    },
    async (request) => ({ success: true as const, data: await service.sessionUser(requireUser(request)) }),
  );

  app.post(
    "/auth/logout",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["auth"],
        summary: "End the session this token belongs to",
        security: [{ bearer: [] }],
        response: { 200: okResponse, 401: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      await service.logout(requireUser(request));
      return { success: true as const };
    },
  );

  app.post(
    "/auth/logout-all",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["auth"],
        summary: "End every session of the caller (the API token keeps working)",
        security: [{ bearer: [] }],
        response: { 200: okResponse, 401: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      await service.logoutEverywhere(requireUser(request));
      return { success: true as const };
    },
  );
}
