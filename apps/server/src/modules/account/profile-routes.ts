import { errorResponse } from "@bytetoll/contracts";
import { unauthorized } from "../../errors.ts";
import { type App, requireUser } from "../../types.ts";
import { createProfileRepository } from "./profile-repository.ts";
import { profileResponse, profileUpdateSchema } from "./profile-schema.ts";

/** PATCH /account/profile: the Profile dialog's editable field (DESIGN §2). */
export async function profileRoutes(app: App) {
  const repository = createProfileRepository(app.database);

  app.patch(
    "/account/profile",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["account"],
        summary: "Set or clear the caller's refund address",
        security: [{ bearer: [] }],
        body: profileUpdateSchema,
        response: { 200: profileResponse, 400: errorResponse, 401: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      const row = await repository.setRefundAddress(requireUser(request).id, request.body.refund_address);
      // The token was valid a moment ago; an account deleted since then is signed out.
      if (!row) throw unauthorized();
      return { success: true as const, data: row };
    },
  );
}
