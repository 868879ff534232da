import { decodeDealId, type LoginRequest } from "@bytetoll/contracts";

/** Username/password another page may hand to /login in navigation state (docs/product.md#routes-and-layout). */
export interface LoginPrefill {
  username?: string;
  password?: string;
}

export function readLoginPrefill(state: unknown): LoginPrefill | null {
  if (typeof state !== "object" || state === null) return null;
  const { username, password } = state as Record<string, unknown>;
  const prefill: LoginPrefill = {};
  if (typeof username === "string" && username.length > 0) prefill.username = username;
  if (typeof password === "string" && password.length > 0) prefill.password = password;
  return prefill.username || prefill.password ? prefill : null;
}

/** docs/product.md#validation: usd must be a positive finite number, rounded to whole dollars; anything else is no amount. */
export function parsePurchaseAmount(usd: string | null): number | undefined {
  if (usd === null || usd.trim() === "") return undefined;
  const value = Number(usd);
  if (!Number.isFinite(value) || value <= 0) return undefined;
  const whole = Math.round(value);
  return whole >= 1 ? whole : undefined;
}

/** docs/product.md#data-shapes login request from the e-mail, the query string (s, di, usd) and any prefill. */
export function buildLoginRequest(
  email: string,
  search: URLSearchParams,
  prefill: LoginPrefill | null,
): LoginRequest {
  const request: LoginRequest = { email, addFreeCredit: search.get("s") === "cc" };
  if (prefill?.username) request.username = prefill.username;
  if (prefill?.password) request.password = prefill.password;
  const dealId = decodeDealId(search.get("di"));
  // Deal ids start at 1; anything else is not a deal the server could know.
  if (dealId !== null && dealId > 0) request.dealId = dealId;
  const purchaseAmount = parsePurchaseAmount(search.get("usd"));
  if (purchaseAmount !== undefined) request.purchaseAmount = purchaseAmount;
  return request;
}

/** Where a signed-in visitor of /login goes: checkout when a deal and amount were given, the
 * deal's card on the dashboard for a deal alone, else home. */
export function signedInDestination(search: URLSearchParams): string {
  const di = search.get("di");
  const usd = search.get("usd");
  if (di && usd) {
    return `/checkout?${new URLSearchParams({ di, usd }).toString()}`;
  }
  if (di) return `/?${new URLSearchParams({ di }).toString()}`;
  return "/";
}

/** What /login understands of the page asked for: a shared deal link (`/?di=…`) keeps its deal
 * (and amount, and free-credit claim) through sign-in. */
const KEPT_THROUGH_SIGN_IN = ["s", "di", "usd"] as const;

export function loginPathFor(search: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const name of KEPT_THROUGH_SIGN_IN) {
    const value = search.get(name);
    if (value !== null) kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `/login?${query}` : "/login";
}
