import type { SessionUser } from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { clearToken, isTokenUsable, useStoredToken } from "../../../lib/token-storage.ts";
import { sessionQueryOptions } from "../api/get-session.ts";

/** SPEC §4 auth session: loading, then anonymous or signed in. */
export type SessionState =
  | { status: "loading"; user: null }
  | { status: "anonymous"; user: null }
  | { status: "signed-in"; user: SessionUser };

const LOADING: SessionState = { status: "loading", user: null };
const ANONYMOUS: SessionState = { status: "anonymous", user: null };

/**
 * The signed-in user, read with the stored token when it is still valid (SPEC §3 margin).
 * A failed session call clears the token (SPEC §4), which turns the state anonymous.
 */
export function useSession(): SessionState {
  const stored = useStoredToken();
  const token = isTokenUsable(stored) ? stored.token : null;
  const query = useQuery({ ...sessionQueryOptions(token ?? ""), enabled: token !== null });
  const failed = query.isError;

  useEffect(() => {
    if (failed && token !== null) clearToken();
  }, [failed, token]);

  if (token === null || failed) return ANONYMOUS;
  if (query.data) return { status: "signed-in", user: query.data };
  return LOADING;
}
