import { accountStatusResponse, bytesToGb, errorResponse } from "@bytetoll/contracts";
import { sendSerializedOnce } from "../../lib/serialized-once.ts";
import { type App, requireUser } from "../../types.ts";
import { createAccountRepository } from "./repository.ts";

/** GET /account/status: the caller's balance (decision 003). */
export async function accountRoutes(app: App) {
  const repository = createAccountRepository(app.database);
  const { balances } = app.changeFeed.caches;

  app.get(
    "/account/status",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["account"],
        summary: "The caller's data balance",
        security: [{ bearer: [] }],
        response: { 200: accountStatusResponse, 401: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const userId = requireUser(request).id;
      const key = `user:${userId}`;
      const status = await balances.get(key, key, async () => {
        const balanceBytes = await repository.balanceBytes(userId);
        return { success: true, data: { balance_gb: bytesToGb(balanceBytes), balance_bytes: balanceBytes } };
      });
      return sendSerializedOnce(reply, accountStatusResponse, status);
    },
  );
}
