import type { Database } from "@bytetoll/db";

export interface StoredCredential {
  username: string;
  passwordEnc: string;
  useSticky: boolean;
}

export interface NewCredential {
  username: string;
  passwordHash: string;
  passwordEnc: string;
}

interface CredentialRow {
  username: string;
  password_enc: string;
  use_sticky: boolean;
}

const toStored = (row: CredentialRow): StoredCredential => ({
  username: row.username,
  passwordEnc: row.password_enc,
  useSticky: row.use_sticky,
});

/** The SQL of proxy credentials. Each change is one statement, so it is safe across instances. */
export function createCredentialsRepository(database: Database) {
  return {
    async findByUser(userId: string): Promise<StoredCredential | null> {
      const [row] = await database.query<CredentialRow>(
        "SELECT username, password_enc, use_sticky FROM proxy_credentials WHERE user_id = $1",
        [userId],
      );
      return row ? toStored(row) : null;
    },

    /** Inserts the account's set unless it already has one (unique user_id) or the generated
     * username is taken (unique username); the caller reads back whatever exists afterwards. */
    async insertForUser(userId: string, credential: NewCredential): Promise<void> {
      await database.query(
        `INSERT INTO proxy_credentials (user_id, username, password_hash, password_enc)
         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [userId, credential.username, credential.passwordHash, credential.passwordEnc],
      );
    },

    /** An unclaimed set for an anonymous visitor; false when the username was taken. */
    async insertAnonymous(credential: NewCredential): Promise<boolean> {
      const rows = await database.query(
        `INSERT INTO proxy_credentials (username, password_hash, password_enc)
         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING id`,
        [credential.username, credential.passwordHash, credential.passwordEnc],
      );
      return rows.length > 0;
    },

    /** Whether this username names a set no account holds (an anonymous visitor's). */
    async isUnclaimed(username: string): Promise<boolean> {
      const rows = await database.query(
        "SELECT 1 FROM proxy_credentials WHERE username = $1 AND user_id IS NULL",
        [username],
      );
      return rows.length > 0;
    },

    /** New password for the account's set; null when it has none. */
    async replacePassword(
      userId: string,
      password: { passwordHash: string; passwordEnc: string },
    ): Promise<StoredCredential | null> {
      const [row] = await database.query<CredentialRow>(
        `UPDATE proxy_credentials SET password_hash = $2, password_enc = $3, updated_at = now()
          WHERE user_id = $1 RETURNING username, password_enc, use_sticky`,
        [userId, password.passwordHash, password.passwordEnc],
      );
      return row ? toStored(row) : null;
    },
  };
}

export type CredentialsRepository = ReturnType<typeof createCredentialsRepository>;
