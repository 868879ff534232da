import { LayoutSkeleton } from "../../../components/layout/layout-skeleton.tsx";
import { useMagicLinkSignIn } from "../hooks/use-magic-link-sign-in.ts";
import { SecondFactorChallenge } from "./second-factor-challenge.tsx";

/** /magic/auth and /magic/auth/order/:orderId: a skeleton of the dashboard while signing in, or
 * the second-factor step when the account has one. */
export function MagicLinkCallback() {
  const { challenge, finish } = useMagicLinkSignIn();
  if (challenge) return <SecondFactorChallenge challenge={challenge} onSignedIn={finish} />;
  return <LayoutSkeleton />;
}
