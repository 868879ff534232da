import type { SessionUser } from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { isAccountDisabledAnswer } from "../../../lib/account-disabled.ts";
import { ApiError } from "../../../lib/api-client.ts";
import {
  clearToken,
  isTokenUsable,
  type StoredToken,
  TOKEN_EXPIRY_MARGIN_SECONDS,
  useStoredToken,
} from "../../../lib/token-storage.ts";
import { sessionQueryOptions } from "../api/get-session.ts";

/** docs/product.md#session: loading, then anonymous or signed in. */
export type SessionState =
  | { status: "loading"; user: null }
  | { status: "anonymous"; user: null }
  | { status: "signed-in"; user: SessionUser };

const LOADING: SessionState = { status: "loading", user: null };
const ANONYMOUS: SessionState = { status: "anonymous", user: null };

/**
 * The signed-in user, read with the stored token when it is still valid (docs/product.md#data-shapes margin).
 * A failed session call clears the token (docs/product.md#states), which turns the state anonymous.
 */
export function useSession(): SessionState {
  const stored = useStoredToken();
  const token = isTokenUsable(stored) ? stored.token : null;
  const query = useQuery({ ...sessionQueryOptions(token ?? ""), enabled: token !== null });
  const failed = query.isError;
  // A disabled account keeps its token: every reload shows the notice again, until Sign out.
  const disabled =
    failed &&
    query.error instanceof ApiError &&
    isAccountDisabledAnswer(query.error.status, query.error.message);

  useEffect(() => {
    if (failed && !disabled && token !== null) clearToken();
  }, [failed, disabled, token]);
  useSignOutAtExpiry(token === null ? null : stored);

  if (token === null || failed) return ANONYMOUS;
  if (query.data) return { status: "signed-in", user: query.data };
  return LOADING;
}

// setTimeout cannot wait longer than this; a page left open that long re-checks on its next render.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Ends the session when the token reaches its expiry margin, instead of letting calls fail with 401. */
function useSignOutAtExpiry(stored: StoredToken | null): void {
  useEffect(() => {
    if (stored === null) return;
    const remainingMs = (stored.exp - TOKEN_EXPIRY_MARGIN_SECONDS) * 1000 - Date.now();
    if (remainingMs > MAX_TIMER_MS) return;
    const timer = setTimeout(clearToken, Math.max(remainingMs, 0));
    return () => clearTimeout(timer);
  }, [stored]);
}
