import {
  autoTopupCardSetupResponse,
  autoTopupSettingsResponse,
  autoTopupUpdateSchema,
  errorResponse,
} from "@bytetoll/contracts";
import { type App, requireUser } from "../../types.ts";
import type { AutoTopupSettingsService } from "./settings-service.ts";

const errors = { 400: errorResponse, 401: errorResponse, 409: errorResponse, 429: errorResponse };

/** GET/PUT /settings/auto-topup, and the card it charges (POST opens the card page, DELETE
 * removes the card and turns auto top-up off). */
export function autoTopupRoutes(settings: AutoTopupSettingsService) {
  return async (app: App) => {
    app.get(
      "/settings/auto-topup",
      {
        preHandler: app.authenticate,
        schema: {
          tags: ["settings"],
          summary: "Auto top-up: on or off, threshold, amount, monthly cap and the saved card",
          security: [{ bearer: [] }],
          response: { 200: autoTopupSettingsResponse, ...errors },
        },
      },
      async (request) => ({ success: true as const, data: await settings.get(requireUser(request).id) }),
    );

    app.put(
      "/settings/auto-topup",
      {
        preHandler: app.authenticate,
        schema: {
          tags: ["settings"],
          summary: "Set auto top-up (turning it on needs a saved card: 409 Add a card first)",
          security: [{ bearer: [] }],
          body: autoTopupUpdateSchema,
          response: { 200: autoTopupSettingsResponse, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await settings.update(requireUser(request).id, request.body),
      }),
    );

    app.post(
      "/settings/auto-topup/card",
      {
        preHandler: app.authenticate,
        schema: {
          tags: ["settings"],
          summary: "Open the card page that saves a card for auto top-up (Stripe Checkout, setup mode)",
          security: [{ bearer: [] }],
          response: { 200: autoTopupCardSetupResponse, ...errors, 502: errorResponse, 503: errorResponse },
        },
      },
      async (request) => {
        const user = requireUser(request);
        return { success: true as const, data: await settings.startCardSetup(user.id, user.email) };
      },
    );

    app.delete(
      "/settings/auto-topup/card",
      {
        preHandler: app.authenticate,
        schema: {
          tags: ["settings"],
          summary: "Remove the saved card (auto top-up turns off)",
          security: [{ bearer: [] }],
          response: { 200: autoTopupSettingsResponse, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await settings.removeCard(requireUser(request).id),
      }),
    );
  };
}
