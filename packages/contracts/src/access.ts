/**
 * Who may do what on an account (docs/product.md#team-members): a person's role on it, and for
 * API tokens, the token's scopes. Every server route names one permission; the dashboard asks
 * the same table what to show.
 */
export const ROLES = ["owner", "admin", "billing", "developer", "viewer"] as const;
export type Role = (typeof ROLES)[number];
/** The roles an owner can give a member. */
export const MEMBER_ROLES = ["admin", "billing", "developer", "viewer"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const SCOPES = [
  "usage:read",
  "account:read",
  "credentials:write",
  "subusers:write",
  "orders:write",
  "webhooks:write",
] as const;
export type Scope = (typeof SCOPES)[number];

interface Rule {
  roles: readonly Role[];
  /** The scope that lets a scoped API token do it; null: scoped tokens never can (a person must). */
  scope: Scope | null;
}

const EVERYONE = ROLES;
const MONEY: readonly Role[] = ["owner", "admin", "billing"];
const BUILDERS: readonly Role[] = ["owner", "admin", "developer"];
const MANAGERS: readonly Role[] = ["owner", "admin"];

export const PERMISSIONS = {
  /** Balance, profile, orders and receipts, deals: reading them. */
  "account:read": { roles: EVERYONE, scope: "account:read" },
  "usage:read": { roles: EVERYONE, scope: "usage:read" },
  /** Buying and paying: orders, cancellations, deal joins, card checkout. */
  "orders:write": { roles: MONEY, scope: "orders:write" },
  /** Auto top-up, the saved card, the refund address and alert threshold. */
  "billing:write": { roles: MONEY, scope: "orders:write" },
  /** Reading the proxy password and the gateway address. */
  "credentials:read": { roles: BUILDERS, scope: "credentials:write" },
  /** New proxy password, the IP allowlist, Smart Routing settings. */
  "credentials:write": { roles: BUILDERS, scope: "credentials:write" },
  "subusers:write": { roles: BUILDERS, scope: "subusers:write" },
  "webhooks:write": { roles: BUILDERS, scope: "webhooks:write" },
  /** Members, their roles and the activity list. */
  "team:write": { roles: MANAGERS, scope: null },
  /** The account's API tokens. */
  "tokens:write": { roles: MANAGERS, scope: null },
  /** What the signed-in person does for themselves: their session, their accounts, sign out. */
  self: { roles: EVERYONE, scope: null },
} as const satisfies Record<string, Rule>;
export type Permission = keyof typeof PERMISSIONS;

/** What a route declares in its config: a permission, or why it needs none. `public` routes
 * answer anyone (sign-in, provider webhooks, health, docs); `operator` routes check the operator
 * themselves (the admin API). */
export type RouteAccess = Permission | "public" | "operator";

export const roleAllows = (role: Role, permission: Permission): boolean =>
  (PERMISSIONS[permission].roles as readonly Role[]).includes(role);

/** Null scopes: a session or the account's original API token, which may do everything. */
export function scopesAllow(scopes: readonly Scope[] | null, permission: Permission): boolean {
  if (scopes === null) return true;
  const scope = PERMISSIONS[permission].scope;
  return scope !== null && scopes.includes(scope);
}
