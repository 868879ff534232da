import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { clearToken, storeToken } from "../../../lib/token-storage.ts";
import { sessionQueryOptions } from "../api/get-session.ts";
import { verifyMagicLink } from "../api/verify-magic-link.ts";

/**
 * SPEC §2 magic-link callback: exchange magic_credential for an app token, verify it with
 * GET /auth/session, then go on to the order or home. Any failure goes silently to /login.
 */
export function useMagicLinkSignIn(): void {
  const { orderId } = useParams();
  const [search] = useSearchParams();
  const credential = search.get("magic_credential");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Link tokens are single use: StrictMode's second effect run must not spend it again.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;

    if (!credential) {
      void navigate("/login", { replace: true });
      return;
    }
    const signIn = async () => {
      try {
        const { token, exp } = await verifyMagicLink(credential);
        storeToken({ token, exp });
        await queryClient.fetchQuery(sessionQueryOptions(token));
        const destination = orderId
          ? `/checkout?${new URLSearchParams({ order_id: orderId }).toString()}`
          : "/";
        await navigate(destination, { replace: true });
      } catch {
        clearToken();
        await navigate("/login", { replace: true });
      }
    };
    void signIn();
  }, [credential, orderId, navigate, queryClient]);
}
