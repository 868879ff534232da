import type { Database } from "@bytetoll/db";
import { AppError } from "../../errors.ts";
import { checkNoOverlap, parseEntry } from "./entries.ts";
import { createAllowlistRepository } from "./repository.ts";

/** PostgreSQL's exclusion_violation: the list overlaps another account's. */
const EXCLUSION_VIOLATION = "23P01";

function sqlState(error: unknown): string | undefined {
  const withCode = error as { code?: string; cause?: { code?: string } };
  return withCode.code ?? withCode.cause?.code;
}

/** An account's IP allowlist: who may connect without credentials as the account. */
export function createAllowlistService(database: Database) {
  const repository = createAllowlistRepository(database);
  return {
    list: (userId: string) => repository.list(userId),

    /** Replaces the list. Each entry is checked and normalised first (a 400 names the bad one);
     * an entry overlapping another account's is a 409 that names no one, and nothing changes. */
    async replace(userId: string, ips: readonly string[]): Promise<string[]> {
      const entries = ips.map(parseEntry);
      checkNoOverlap(entries);
      try {
        await repository.replace(
          userId,
          entries.map((entry) => `${entry.address.toString()}/${entry.prefix}`),
        );
      } catch (error) {
        if (sqlState(error) !== EXCLUSION_VIOLATION) throw error;
        throw new AppError(
          409,
          "An address or range in this list is already on another account's allowlist: an address can admit one account only",
          "allowlist_conflict",
        );
      }
      return entries.map((entry) => entry.text);
    },
  };
}
