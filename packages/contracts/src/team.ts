import { z } from "zod";
import { MEMBER_ROLES, ROLES, SCOPES } from "./access.ts";
import { emailSchema } from "./auth.ts";
import { successEnvelope } from "./envelope.ts";

/** docs/product.md#team-members */
export const memberRoleSchema = z.enum(MEMBER_ROLES, {
  error: `role must be one of ${MEMBER_ROLES.join(", ")}`,
});

export const teamMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  created_at: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;
/** The owner first, then members by when they joined. */
export const teamMembersResponse = successEnvelope(z.array(teamMemberSchema));
export const teamMemberResponse = successEnvelope(teamMemberSchema);

export const inviteMemberSchema = z.strictObject({ email: emailSchema, role: memberRoleSchema });
export type InviteMember = z.infer<typeof inviteMemberSchema>;
export const changeRoleSchema = z.strictObject({ role: memberRoleSchema });
export type ChangeRole = z.infer<typeof changeRoleSchema>;
export const memberIdParams = z.object({ id: z.uuid({ error: "id must be a member id" }) });

/** An account the signed-in person can open; `current` is the one their token acts on. */
export const accountAccessSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  current: z.boolean(),
});
export type AccountAccess = z.infer<typeof accountAccessSchema>;
/** Their own account first, then the ones they were invited to. */
export const accountsResponse = successEnvelope(z.array(accountAccessSchema));

export const switchAccountSchema = z.strictObject({
  account_id: z.uuid({ error: "account_id must be an account id" }),
});
export type SwitchAccount = z.infer<typeof switchAccountSchema>;
export const switchAccountResponse = successEnvelope(
  z.object({ token: z.string(), exp: z.number().int(), account: accountAccessSchema }),
);

export const activityEntrySchema = z.object({
  id: z.number().int(),
  actor_email: z.string(),
  action: z.string(),
  detail: z.string(),
  created_at: z.string(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;
/** Newest first, the last 200. */
export const activityResponse = successEnvelope(z.array(activityEntrySchema));

/** docs/product.md#api-tokens */
export const SCOPED_TOKENS_MAX = 20;
export const TOKEN_NAME_MAX = 64;
export const scopeSchema = z.enum(SCOPES, { error: `scopes must be among ${SCOPES.join(", ")}` });

export const createScopedTokenSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, "name is required")
    .max(TOKEN_NAME_MAX, `name must be at most ${TOKEN_NAME_MAX} characters`),
  scopes: z
    .array(scopeSchema)
    .min(1, "choose at least one scope")
    .max(SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, "each scope at most once"),
  expires_at: z.iso
    .datetime({ offset: true, error: "expires_at must be an ISO date-time" })
    .refine((value) => Date.parse(value) > Date.now(), "expires_at must be in the future")
    .nullish(),
});
export type CreateScopedToken = z.infer<typeof createScopedTokenSchema>;

export const scopedTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(scopeSchema),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
});
export type ScopedToken = z.infer<typeof scopedTokenSchema>;
export const scopedTokensResponse = successEnvelope(z.array(scopedTokenSchema));
/** The token itself is in this answer only. */
export const createdScopedTokenResponse = successEnvelope(scopedTokenSchema.extend({ token: z.string() }));
export const scopedTokenIdParams = z.object({ id: z.uuid({ error: "id must be a token id" }) });
