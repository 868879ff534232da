import { errorResponse, profileResponse, profileUpdateSchema } from "@bytetoll/contracts";
import { unauthorized } from "../../errors.ts";
import { type App, type AuthUser, requireUser } from "../../types.ts";
import { operatorFlags } from "../admin/index.ts";
import { createProfileRepository } from "./profile-repository.ts";

const responses = { 200: profileResponse, 401: errorResponse, 429: errorResponse };

/** GET and PATCH /account/profile: the Profile dialog's editable fields (refund address,
 * low-balance alert threshold). */
export async function profileRoutes(app: App) {
  const repository = createProfileRepository(app.database);
  // A member on someone's account is not its operator, whoever the owner is.
  const operatorFlagsOf = (user: AuthUser) =>
    operatorFlags(
      app.config,
      app.database,
      { id: user.actorId, email: user.email },
      user.actorId === user.id,
    );

  app.get(
    "/account/profile",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["account"],
        summary: "The caller's profile: refund address and low-balance alert threshold",
        security: [{ bearer: [] }],
        response: responses,
      },
    },
    async (request) => {
      const profile = await repository.find(requireUser(request).id);
      if (!profile) throw unauthorized();
      return {
        success: true as const,
        data: { ...profile, ...(await operatorFlagsOf(requireUser(request))) },
      };
    },
  );

  app.patch(
    "/account/profile",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["account"],
        summary: "Set or clear the caller's refund address and low-balance alert threshold",
        security: [{ bearer: [] }],
        body: profileUpdateSchema,
        response: { ...responses, 400: errorResponse },
      },
    },
    async (request) => {
      const profile = await repository.update(requireUser(request).id, request.body);
      // The token was valid a moment ago; an account deleted since then is signed out.
      if (!profile) throw unauthorized();
      return {
        success: true as const,
        data: { ...profile, ...(await operatorFlagsOf(requireUser(request))) },
      };
    },
  );
}
