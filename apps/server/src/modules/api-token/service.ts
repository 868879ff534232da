import { API_TOKEN_PREFIX } from "@bytetoll/contracts";
import {
  type Database,
  decryptSecret,
  deriveKey,
  encryptSecret,
  hashSecret,
  randomSecret,
} from "@bytetoll/db";
import { createApiTokenRepository } from "./repository.ts";

/** 32 random bytes: as strong as the login-link tokens, but long-lived. */
const TOKEN_BYTES = 32;

/** docs/product.md#api-token: looked up by hash (auth plugin), shown again from the sealed copy. */
export function createApiTokenService(database: Database, appSecret: string) {
  const repository = createApiTokenRepository(database);
  const key = deriveKey(appSecret, "api-token");

  const newToken = () => {
    const token = `${API_TOKEN_PREFIX}${randomSecret(TOKEN_BYTES)}`;
    return { token, sealed: { tokenHash: hashSecret(token), tokenEnc: encryptSecret(key, token) } };
  };

  return {
    /** Created on first read; concurrent first reads agree on the one that was stored. */
    async current(userId: string): Promise<string> {
      const existing = await repository.findSealed(userId);
      if (existing) return decryptSecret(key, existing);
      await repository.insertIfAbsent(userId, newToken().sealed);
      const stored = await repository.findSealed(userId);
      if (!stored) throw new Error("API token was not stored");
      return decryptSecret(key, stored);
    },

    /** A new token; the old one is refused from the next request on. */
    async regenerate(userId: string): Promise<string> {
      const { token, sealed } = newToken();
      await repository.replace(userId, sealed);
      return token;
    },
  };
}
