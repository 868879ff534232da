import { randomInt } from "node:crypto";
import {
  type CreateSubuser,
  gbToBytes,
  MAX_SUBUSERS,
  type Subuser,
  type SubuserLimitPeriod,
  type UpdateSubuser,
} from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import type { FastifyBaseLogger } from "fastify";
import { AppError, driverErrorCode, notFound } from "../../errors.ts";
import { createPasswordSealer, generatePassword } from "../credentials/index.ts";
import { createSubusersRepository, type SubuserRow } from "./repository.ts";

/** `su` + 10 lowercase alphanumerics: no `-` (the gateway's option suffixes stay unambiguous),
 * and never an account's own `bt…` name; the database refuses a name either table holds. */
const USERNAME_PREFIX = "su";
const USERNAME_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const USERNAME_ATTEMPTS = 5;
const BYTES_PER_GB = 1e9;

function generateSubuserUsername(): string {
  let name = USERNAME_PREFIX;
  for (let i = 0; i < 10; i++) name += USERNAME_ALPHABET[randomInt(USERNAME_ALPHABET.length)];
  return name;
}

/** Which unique rule a failed insert or update broke: the driver's own message (a constraint's
 * name, or the username trigger's "is taken"), never the query text around it. */
function uniqueViolation(error: unknown): "label" | "username" | null {
  if (driverErrorCode(error) !== "23505") return null;
  for (
    let link = error as { message?: unknown; cause?: unknown } | undefined, depth = 0;
    link && depth < 8;
    depth++
  ) {
    // Only the driver's error (the link with a SQLSTATE) speaks: a wrapper's message holds the query.
    const message = "code" in link && typeof link.message === "string" ? link.message : "";
    if (message.includes("subusers_user_label_uq")) return "label";
    if (message.includes("username")) return "username";
    link = link.cause as typeof link;
  }
  return "username";
}

const toBytes = (gb: number | null): number | null => (gb === null ? null : gbToBytes(gb));

const labelTaken = () =>
  new AppError(409, "label: another sub-user of this account already has this label", "subuser_label_taken");
const subuserNotFound = () => notFound("Sub-user not found");

/** Sub-users: extra proxy credentials of an account, each with its own limit (migration 0023). */
export function createSubusersService({
  database,
  appSecret,
  log,
}: {
  database: Database;
  appSecret: string;
  log: FastifyBaseLogger;
}) {
  const repository = createSubusersRepository(database);
  const sealer = createPasswordSealer(appSecret);

  const shown = (row: SubuserRow): Subuser => {
    const limitBytes = row.limit_bytes === null ? null : Number(row.limit_bytes);
    const usedBytes = Number(row.used_bytes);
    return {
      id: row.id,
      label: row.label,
      username: row.username,
      password: sealer.open(row.password_enc),
      limit_gb: limitBytes === null ? null : limitBytes / BYTES_PER_GB,
      limit_bytes: limitBytes,
      limit_period: row.limit_period,
      used_gb: Math.round(usedBytes / 1e6) / 1e3,
      used_bytes: usedBytes,
      period_start: row.period_start,
      enabled: row.enabled,
      allowed_domains: row.allowed_domains,
      created_at: new Date(row.created_at).toISOString(),
    };
  };

  async function get(userId: string, id: string): Promise<Subuser> {
    const row = await repository.find(userId, id);
    if (!row) throw subuserNotFound();
    return shown(row);
  }

  /** A taken label is the caller's conflict; anything else propagates. */
  async function guardLabel<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (uniqueViolation(error) === "label") throw labelTaken();
      throw error;
    }
  }

  return {
    get,

    async list(userId: string): Promise<Subuser[]> {
      return (await repository.list(userId)).map(shown);
    },

    async create(userId: string, input: CreateSubuser): Promise<Subuser> {
      const limitPeriod: SubuserLimitPeriod = input.limit_period ?? "total";
      for (let attempt = 0; attempt < USERNAME_ATTEMPTS; attempt++) {
        try {
          const id = await repository.insert(
            userId,
            {
              label: input.label,
              username: generateSubuserUsername(),
              limitBytes: toBytes(input.limit_gb ?? null),
              limitPeriod,
              ...sealer.seal(generatePassword()),
            },
            MAX_SUBUSERS,
          );
          if (id === null) {
            throw new AppError(409, `An account can hold at most ${MAX_SUBUSERS} sub-users`, "subuser_limit");
          }
          log.info({ userId, subuserId: id }, "sub-user created");
          return await get(userId, id);
        } catch (error) {
          const violated = uniqueViolation(error);
          if (violated === null) throw error;
          if (violated === "label") throw labelTaken();
          // A generated username was taken: try another.
        }
      }
      throw new Error("could not generate a free sub-user username");
    },

    async update(userId: string, id: string, input: UpdateSubuser): Promise<Subuser> {
      const changed = await guardLabel(() =>
        repository.update(userId, id, {
          label: input.label,
          limitBytes: input.limit_gb === undefined ? undefined : toBytes(input.limit_gb),
          limitPeriod: input.limit_period,
          enabled: input.enabled,
          allowedDomains: input.allowed_domains,
        }),
      );
      if (!changed) throw subuserNotFound();
      return get(userId, id);
    },

    /** Same username, new password; the database announces it (migration 0023), so every gateway
     * refuses the old one and closes the connections that used it. */
    async regeneratePassword(userId: string, id: string): Promise<Subuser> {
      if (!(await repository.replacePassword(userId, id, sealer.seal(generatePassword()))))
        throw subuserNotFound();
      log.info({ userId, subuserId: id }, "sub-user password regenerated");
      return get(userId, id);
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await repository.remove(userId, id))) throw subuserNotFound();
      log.info({ userId, subuserId: id }, "sub-user deleted");
    },
  };
}

export type SubusersService = ReturnType<typeof createSubusersService>;
