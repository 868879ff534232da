import type { SignedIn, TwoFactorChallenge } from "@bytetoll/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { clearToken, storeToken } from "../../../lib/token-storage.ts";
import { sessionQueryOptions } from "../api/get-session.ts";
import { verifyMagicLink } from "../api/verify-magic-link.ts";
import { forgetCredentialClaim, readCredentialClaim } from "../pending-claim.ts";

/** The order the sign-in made (verify's order_id), else the one the link's path names. */
function destination(orderId: string | null | undefined): string {
  return orderId ? `/checkout?${new URLSearchParams({ order_id: orderId }).toString()}` : "/";
}

/**
 * docs/product.md#magic-link-callback: exchange magic_credential for an app token (presenting the
 * prefilled credentials kept when the link was asked for in this browser), verify it with
 * GET /auth/session, then go on to the order or home. Any failure goes silently to /login. An
 * account with a second factor answers a challenge first: the hook hands it back, and `finish`
 * takes the token its factor was traded for.
 */
export function useMagicLinkSignIn(): {
  challenge: TwoFactorChallenge | null;
  finish: (signedIn: SignedIn) => Promise<void>;
} {
  const { orderId } = useParams();
  const [search] = useSearchParams();
  const credential = search.get("magic_credential");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Link tokens are single use: StrictMode's second effect run must not spend it again.
  const started = useRef(false);
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);

  const finish = useCallback(
    async (verified: SignedIn) => {
      storeToken({ token: verified.token, exp: verified.exp });
      await queryClient.fetchQuery(sessionQueryOptions(verified.token));
      await navigate(destination(verified.order_id ?? orderId), { replace: true });
    },
    [navigate, orderId, queryClient],
  );

  useEffect(() => {
    if (started.current) return;
    started.current = true;

    if (!credential) {
      void navigate("/login", { replace: true });
      return;
    }
    const signIn = async () => {
      try {
        const verified = await verifyMagicLink(credential, readCredentialClaim());
        forgetCredentialClaim();
        if ("two_factor_required" in verified) setChallenge(verified);
        else await finish(verified);
      } catch {
        clearToken();
        await navigate("/login", { replace: true });
      }
    };
    void signIn();
  }, [credential, navigate, finish]);

  return { challenge, finish };
}
