import type { RouteAccess } from "@bytetoll/contracts";

/**
 * What each route of the app needs, in one table the security review reads whole
 * (docs/product.md#team-members). A route may instead name its need in its own config
 * (`config.access`), which wins. A route in neither is for the account's owner only, and the
 * route-table test fails for it.
 */
export const ROUTE_ACCESS: Readonly<Record<string, RouteAccess>> = {
  // Anyone: sign-in, provider callbacks, health, public pages and files.
  "POST /magic/check": "public",
  "POST /auth/login": "public",
  "POST /auth/magic/verify": "public",
  "POST /auth/2fa/verify": "public",
  "GET /allowlist/proof/:token": "public",
  "POST /webhooks/stripe": "public",
  "POST /webhooks/crypto": "public",
  "GET /healthz": "public",
  "GET /readyz": "public",
  "GET /config": "public",
  "GET /terms": "public",
  "GET /privacy": "public",
  "GET /downloads/:file": "public",
  "GET /deals/latestv2": "public",
  "GET /deals/:id": "public",
  "GET /ipinfo": "public",
  // The gateway's address, and the anonymous visitor's temporary credentials and their test.
  "GET /gateway": "public",
  "GET /credentials/unique": "public",
  "POST /credentials/test": "public",
  // A proxy list's download URL: its secret is the credential (docs/product.md#proxy-list).
  "GET /credentials/proxy-list/shared/:secret": "public",
  "GET /metrics": "public",
  // The dashboard's files, and CORS preflights.
  "GET /*": "public",
  "OPTIONS *": "public",

  // The signed-in person, whatever their role.
  "GET /auth/session": "self",
  "POST /auth/logout": "self",
  "POST /auth/logout-all": "self",
  // The person's own second factors (kept on the person, whichever account is open).
  "GET /auth/2fa": "self",
  "POST /auth/2fa/totp/setup": "self",
  "POST /auth/2fa/totp/enable": "self",
  "POST /auth/2fa/totp/disable": "self",
  "POST /auth/2fa/passkeys/options": "self",
  "POST /auth/2fa/passkeys": "self",
  "DELETE /auth/2fa/passkeys/:id": "self",

  // Reading the account.
  "GET /account/status": "account:read",
  "GET /account/profile": "account:read",
  "GET /transactions": "account:read",
  "GET /transactions/:orderId": "account:read",
  "GET /transactions/:orderId/receipt": "account:read",
  "GET /history": "account:read",
  "GET /account/billing": "account:read",
  "GET /account/invoices": "account:read",
  "GET /account/invoices/:number": "account:read",
  "GET /payouts": "account:read",
  "GET /deals/:id/deposits": "account:read",
  "GET /proxies/usage": "usage:read",
  "GET /proxies/usage/export": "usage:read",

  // Money.
  "POST /transactions": "orders:write",
  "POST /transactions/:orderId/payment": "orders:write",
  "POST /transactions/:orderId/cancel": "orders:write",
  "POST /stripe/sessions": "orders:write",
  "POST /deals/:id/withdraw": "orders:write",
  "PATCH /account/profile": "billing:write",
  "PUT /account/billing": "billing:write",
  "GET /settings/auto-topup": "billing:write",
  "PUT /settings/auto-topup": "billing:write",
  "POST /settings/auto-topup/card": "billing:write",
  "DELETE /settings/auto-topup/card": "billing:write",

  // Proxy access.
  "GET /credentials/latest": "credentials:read",
  "POST /credentials/regenerate": "credentials:write",
  "GET /credentials/proxy-list": "credentials:read",
  "GET /credentials/proxy-list/links": "credentials:read",
  "POST /credentials/proxy-list/links": "credentials:write",
  "DELETE /credentials/proxy-list/links/:id": "credentials:write",
  "GET /settings/allowlist": "credentials:read",
  "POST /settings/allowlist": "credentials:write",
  "GET /settings/hostnames": "credentials:read",
  "POST /settings/hostnames": "credentials:write",
  "GET /settings/routing/rules": "credentials:read",
  "PATCH /settings/routing/rules/:id": "credentials:write",
  "POST /subusers": "subusers:write",
  "GET /subusers": "subusers:write",
  "GET /subusers/:id": "subusers:write",
  "PATCH /subusers/:id": "subusers:write",
  "DELETE /subusers/:id": "subusers:write",
  "POST /subusers/:id/password": "subusers:write",
  "POST /webhooks": "webhooks:write",
  "GET /webhooks": "webhooks:write",
  "DELETE /webhooks/:id": "webhooks:write",
  "POST /webhooks/:id/test": "webhooks:write",
  "GET /webhooks/:id/deliveries": "webhooks:write",

  // The account's original API token: whoever reads it holds every scope.
  "GET /account/api-token": "tokens:write",
  "POST /account/api-token/regenerate": "tokens:write",
};

/** Whole areas with one answer: the operators' API checks operators itself; the dev sandbox
 * pages and the API docs are open (the sandbox exists only outside production). */
const PREFIX_ACCESS: ReadonlyArray<readonly [string, RouteAccess]> = [
  ["/admin/", "operator"],
  ["/dev/", "public"],
  ["/docs", "public"],
];

/** The rule for a route, by its method (HEAD as GET) and URL pattern; undefined when none. */
export function routeAccess(method: string, url: string): RouteAccess | undefined {
  const verb = method === "HEAD" ? "GET" : method;
  const exact = ROUTE_ACCESS[`${verb} ${url}`];
  if (exact) return exact;
  return PREFIX_ACCESS.find(([prefix]) => url.startsWith(prefix))?.[1];
}
