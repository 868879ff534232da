import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { clearToken } from "../../../lib/token-storage.ts";
import { SESSION_QUERY_KEY } from "../api/get-session.ts";
import { logout } from "../api/logout.ts";

/**
 * Query-key prefixes of per-user data that must not outlive a sign-out (docs/product.md#states).
 * Credential and account queries of later features start their keys with these.
 */
export const USER_DATA_QUERY_KEYS = [SESSION_QUERY_KEY, ["credentials"], ["account"]] as const;

/** docs/product.md#session: tell the server (errors ignored), forget everything local, go to /login. */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    await logout();
    try {
      window.localStorage.clear();
    } catch {
      // Storage unavailable: nothing persisted to clear.
    }
    clearToken();
    for (const queryKey of USER_DATA_QUERY_KEYS) queryClient.removeQueries({ queryKey });
    await navigate("/login", { replace: true });
  }, [queryClient, navigate]);
}
