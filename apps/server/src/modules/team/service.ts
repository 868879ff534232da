import type { AccountAccess, ChangeRole, InviteMember, TeamMember } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.ts";
import { AppError, notFound, unauthorized } from "../../errors.ts";
import { signAppToken } from "../../lib/app-token.ts";
import type { Mailer } from "../../plugins/mail.ts";
import type { AuthUser } from "../../types.ts";
import { invitationEmail } from "./invitation-email.ts";
import { createTeamRepository } from "./repository.ts";

/** Members per account at most: a team, not a mailing list. */
export const MEMBERS_MAX = 50;
const ACTIVITY_SHOWN = 200;
const MEMBER_NOT_FOUND = "No such member on this account.";

interface Deps {
  database: Database;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
}

/** docs/product.md#team-members: who may act on an account, and as what. */
export function createTeamService({ database, config, mailer, log }: Deps) {
  const repository = createTeamRepository(database);
  const actor = (user: AuthUser) => ({ accountId: user.id, actorId: user.actorId, actorEmail: user.email });

  return {
    members: (user: AuthUser) => repository.members(user.id),

    /** Adds the person (their user row is made if new) and e-mails them; the sign-in link they
     * use later is the usual one. */
    async invite(user: AuthUser, input: InviteMember): Promise<TeamMember> {
      const added = await repository.transaction(async (tx) => {
        const account = await repository.lockAccount(tx, user.id);
        if (!account) throw unauthorized();
        if (input.email === account.email)
          throw new AppError(400, "The owner is already on the account.", "bad_request");
        if ((await repository.countMembers(tx, user.id)) >= MEMBERS_MAX) {
          throw new AppError(409, `An account has at most ${MEMBERS_MAX} members.`, "too_many_members");
        }
        const userId = await repository.upsertUser(tx, input.email);
        const row = await repository.insertMember(tx, {
          accountId: user.id,
          userId,
          role: input.role,
          invitedBy: user.actorId,
        });
        if (!row) throw new AppError(409, "That person is already a member.", "already_member");
        await repository.record(tx, {
          ...actor(user),
          action: "member.invited",
          detail: `${input.email} as ${input.role}`,
        });
        return {
          accountEmail: account.email,
          member: {
            id: userId,
            email: input.email,
            role: input.role,
            created_at: new Date(row.created_at).toISOString(),
          },
        };
      });
      // The membership stands whether or not the mail goes out; the owner can tell them.
      await mailer
        .send(invitationEmail(input.email, added.accountEmail, input.role, config.APP_URL))
        .catch((error: unknown) => log.error({ err: error }, "the invitation e-mail could not be sent"));
      return added.member;
    },

    async changeRole(user: AuthUser, memberId: string, input: ChangeRole): Promise<TeamMember> {
      return repository.transaction(async (tx) => {
        await repository.lockAccount(tx, user.id);
        const row = await repository.changeRole(tx, user.id, memberId, input.role);
        if (!row) throw notFound(MEMBER_NOT_FOUND);
        await repository.record(tx, {
          ...actor(user),
          action: "member.role_changed",
          detail: `${row.email} to ${input.role}`,
        });
        return {
          id: memberId,
          email: row.email,
          role: input.role,
          created_at: new Date(row.created_at).toISOString(),
        };
      });
    },

    /** The member's sessions of this account are revoked in the same transaction. */
    async remove(user: AuthUser, memberId: string): Promise<void> {
      await repository.transaction(async (tx) => {
        await repository.lockAccount(tx, user.id);
        const row = await repository.removeMember(tx, user.id, memberId);
        if (!row) throw notFound(MEMBER_NOT_FOUND);
        await repository.record(tx, { ...actor(user), action: "member.removed", detail: row.email });
      });
    },

    activity: (user: AuthUser) => repository.activity(user.id, ACTIVITY_SHOWN),

    /** What a member did: kept for the account's owner, never failing the request. */
    recordAction(user: AuthUser, action: string): void {
      repository
        .record(null, { ...actor(user), action, detail: "" })
        .catch((error: unknown) => log.warn({ err: error }, "could not record a member's action"));
    },

    async accounts(user: AuthUser): Promise<AccountAccess[]> {
      const rows = await repository.accountsOf(user.actorId);
      return rows.map((row) => ({ ...row, current: row.id === user.id }));
    },

    /** A token for the person on `accountId` (their own, or one they are a member of), ending
     * when their current session ends. */
    async switchTo(user: AuthUser, accountId: string) {
      if (!user.sessionId)
        throw new AppError(403, "Sign in to switch accounts.", "insufficient_scope", { codeInBody: true });
      const session = await repository.openSession(user.actorId, user.sessionId, accountId);
      if (!session) throw new AppError(403, "You are not a member of that account.", "not_a_member");
      const token = await signAppToken(config.JWT_SECRET, {
        userId: user.actorId,
        sessionId: session.id,
        exp: session.exp,
      });
      const account = (await repository.accountsOf(user.actorId)).find((row) => row.id === accountId);
      if (!account) throw new AppError(403, "You are not a member of that account.", "not_a_member");
      return { token, exp: session.exp, account: { ...account, current: true } };
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
