import {
  accountsResponse,
  activityResponse,
  changeRoleSchema,
  errorResponse,
  inviteMemberSchema,
  memberIdParams,
  okResponse,
  switchAccountResponse,
  switchAccountSchema,
  teamMemberResponse,
  teamMembersResponse,
} from "@bytetoll/contracts";
import { AppError } from "../../errors.ts";
import { type App, requireUser } from "../../types.ts";

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
};
const security = [{ bearer: [] }];
const TEAM = ["team"];

/** Invitations e-mail people: per address and hour, like the other mail-sending calls. */
const inviteRateLimit = {
  max: 30,
  timeWindow: 60 * 60_000,
  errorResponseBuilder: () =>
    new AppError(429, "Too many invitations. Please wait a while and try again.", "rate_limited"),
};

/** docs/product.md#team-members: the team of the account the token acts on, the accounts the
 * person can open, and switching between them. */
export async function teamRoutes(app: App) {
  const service = app.team;
  const preHandler = app.authenticate;

  app.get(
    "/team/members",
    {
      preHandler,
      config: { access: "team:write" },
      schema: {
        tags: TEAM,
        summary: "The account's owner and members",
        security,
        response: { 200: teamMembersResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await service.members(requireUser(request)) }),
  );

  app.post(
    "/team/members",
    {
      preHandler,
      config: { access: "team:write", rateLimit: inviteRateLimit },
      schema: {
        tags: TEAM,
        summary: "Invite a person by e-mail with a role",
        security,
        body: inviteMemberSchema,
        response: { 200: teamMemberResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.invite(requireUser(request), request.body),
    }),
  );

  app.patch(
    "/team/members/:id",
    {
      preHandler,
      config: { access: "team:write" },
      schema: {
        tags: TEAM,
        summary: "Change a member's role (their open sessions follow at once)",
        security,
        params: memberIdParams,
        body: changeRoleSchema,
        response: { 200: teamMemberResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.changeRole(requireUser(request), request.params.id, request.body),
    }),
  );

  app.delete(
    "/team/members/:id",
    {
      preHandler,
      config: { access: "team:write" },
      schema: {
        tags: TEAM,
        summary: "Remove a member; their tokens for this account stop working at once",
        security,
        params: memberIdParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await service.remove(requireUser(request), request.params.id);
      return { success: true as const };
    },
  );

  app.get(
    "/team/activity",
    {
      preHandler,
      config: { access: "team:write" },
      schema: {
        tags: TEAM,
        summary: "What members did on the account, newest first",
        security,
        response: { 200: activityResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await service.activity(requireUser(request)) }),
  );

  app.get(
    "/accounts",
    {
      preHandler,
      config: { access: "self" },
      schema: {
        tags: TEAM,
        summary: "Every account the signed-in person can open, their own first",
        security,
        response: { 200: accountsResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await service.accounts(requireUser(request)) }),
  );

  app.post(
    "/auth/switch",
    {
      preHandler,
      config: { access: "self" },
      schema: {
        tags: TEAM,
        summary: "A token for another account the person belongs to, with their role there",
        security,
        body: switchAccountSchema,
        response: { 200: switchAccountResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.switchTo(requireUser(request), request.body.account_id),
    }),
  );
}
