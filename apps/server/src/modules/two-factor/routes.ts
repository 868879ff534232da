import {
  errorResponse,
  factorStatusResponse,
  okResponse,
  passkeyOptionsResponse,
  passkeyRegisterRequestSchema,
  passkeyRegisterResponse,
  recoveryCodesResponse,
  totpCodeRequestSchema,
  totpDisableRequestSchema,
  totpSetupResponse,
} from "@bytetoll/contracts";
import { z } from "zod";
import { type App, type AuthUser, requireUser } from "../../types.ts";
import { createFactorSettings } from "./factor-settings.ts";

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  409: errorResponse,
  429: errorResponse,
};
const base = { tags: ["auth"], security: [{ bearer: [] }] };

/** Factors belong to the signed-in person, never to an account a member switched onto. */
function person(request: Parameters<typeof requireUser>[0]): AuthUser {
  const user = requireUser(request);
  return { ...user, id: user.actorId };
}

/** The caller's second factors (docs/product.md#second-factor). */
export async function twoFactorRoutes(app: App) {
  const settings = createFactorSettings({ database: app.database, config: app.config });
  const guarded = { preHandler: app.authenticate };

  app.get(
    "/auth/2fa",
    {
      ...guarded,
      schema: {
        ...base,
        summary: "The caller's second factors",
        response: { 200: factorStatusResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await settings.status(person(request).id) }),
  );

  app.post(
    "/auth/2fa/totp/setup",
    {
      ...guarded,
      schema: {
        ...base,
        summary: "Start setting up an authenticator app (pending until enabled)",
        response: { 200: totpSetupResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await settings.setupTotp(person(request)) }),
  );

  app.post(
    "/auth/2fa/totp/enable",
    {
      ...guarded,
      schema: {
        ...base,
        summary: "Turn the authenticator app on with a first code; answers the recovery codes, once",
        body: totpCodeRequestSchema,
        response: { 200: recoveryCodesResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        recovery_codes: await settings.enableTotp(person(request), request.body.code, request.ip),
      },
    }),
  );

  app.post(
    "/auth/2fa/totp/disable",
    {
      ...guarded,
      schema: {
        ...base,
        summary: "Turn the authenticator app off with a current code or a recovery code",
        body: totpDisableRequestSchema,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await settings.disableTotp(person(request), request.body, request.ip);
      return { success: true as const };
    },
  );

  app.post(
    "/auth/2fa/passkeys/options",
    {
      ...guarded,
      schema: {
        ...base,
        summary: "WebAuthn options to create a passkey",
        response: { 200: passkeyOptionsResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await settings.passkeyOptions(person(request)),
    }),
  );

  app.post(
    "/auth/2fa/passkeys",
    {
      ...guarded,
      schema: {
        ...base,
        summary: "Save the passkey the browser created",
        body: passkeyRegisterRequestSchema,
        response: { 200: passkeyRegisterResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await settings.registerPasskey(person(request), request.body),
    }),
  );

  app.delete(
    "/auth/2fa/passkeys/:id",
    {
      ...guarded,
      schema: {
        ...base,
        summary: "Remove one of the caller's passkeys",
        params: z.object({ id: z.uuid("No such passkey.") }),
        response: { 200: okResponse, 404: errorResponse, ...errors },
      },
    },
    async (request) => {
      await settings.removePasskey(person(request), request.params.id);
      return { success: true as const };
    },
  );
}
