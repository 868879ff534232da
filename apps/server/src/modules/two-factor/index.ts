import type { Database } from "@bytetoll/db";
import { createTwoFactorRepository } from "./repository.ts";

export { twoFactorRoutes } from "./routes.ts";
export { createSignInFactor, type PendingOrder, type SignInFactor } from "./sign-in-factor.ts";

/** Whether the account has an authenticator app on or a passkey (the operators' gate). */
export const hasSecondFactor = (database: Database, userId: string) =>
  createTwoFactorRepository(database).hasFactor(database.db, userId);
