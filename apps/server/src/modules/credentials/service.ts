import type { Credentials, UniqueCredentials } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import type { FastifyBaseLogger } from "fastify";
import { createPasswordSealer, generatePassword, generateUsername } from "./credential-secrets.ts";
import { createCredentialsRepository, type StoredCredential } from "./repository.ts";

/** A 10-character random username collides about once in 10^15 tries; a few retries are plenty. */
const USERNAME_ATTEMPTS = 5;

interface Deps {
  database: Database;
  appSecret: string;
  log: FastifyBaseLogger;
}

/** Proxy credentials: one set per account, created on first read; anonymous sets for visitors. */
export function createCredentialsService({ database, appSecret, log }: Deps) {
  const repository = createCredentialsRepository(database);
  const sealer = createPasswordSealer(appSecret);

  const shown = (stored: StoredCredential): Credentials => ({
    username: stored.username,
    password: sealer.open(stored.passwordEnc),
    options: { use_sticky: stored.useSticky },
  });

  /** Race-safe creation: concurrent first reads both INSERT … ON CONFLICT DO NOTHING and then
   * read the one row that won. */
  async function ensure(userId: string): Promise<StoredCredential> {
    for (let attempt = 0; attempt < USERNAME_ATTEMPTS; attempt++) {
      const existing = await repository.findByUser(userId);
      if (existing) return existing;
      await repository.insertForUser(userId, {
        username: generateUsername(),
        ...sealer.seal(generatePassword()),
      });
    }
    const created = await repository.findByUser(userId);
    if (!created) throw new Error("could not create proxy credentials");
    return created;
  }

  return {
    async latest(userId: string): Promise<Credentials> {
      return shown(await ensure(userId));
    },

    /** Same username, new password. The database announces the change (migration 0012), so every
     * gateway forgets the old password and closes the connections that used it. */
    async regenerate(userId: string): Promise<Credentials> {
      await ensure(userId);
      const updated = await repository.replacePassword(userId, sealer.seal(generatePassword()));
      if (!updated) throw new Error("proxy credentials vanished during regeneration");
      log.info({ userId }, "proxy password regenerated");
      return shown(updated);
    },

    /** Whether the username, with or without the gateway's option suffixes, names an unclaimed
     * set. Generated usernames hold no "-", so the base is what comes before the first one. */
    async isTemporary(username: string): Promise<boolean> {
      return repository.isUnclaimed(username.split("-", 1)[0] ?? username);
    },

    /** An unclaimed set (user_id null) that sign-up with it prefilled attaches to the account. */
    async createAnonymous(): Promise<UniqueCredentials> {
      for (let attempt = 0; attempt < USERNAME_ATTEMPTS; attempt++) {
        const username = generateUsername();
        const password = generatePassword();
        if (await repository.insertAnonymous({ username, ...sealer.seal(password) }))
          return { username, password };
      }
      throw new Error("could not create anonymous proxy credentials");
    },
  };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
