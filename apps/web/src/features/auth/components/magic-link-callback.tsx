import { LayoutSkeleton } from "../../../components/layout/layout-skeleton.tsx";
import { useMagicLinkSignIn } from "../hooks/use-magic-link-sign-in.ts";

/** /magic/auth and /magic/auth/order/:orderId: a skeleton of the dashboard while signing in. */
export function MagicLinkCallback() {
  useMagicLinkSignIn();
  return <LayoutSkeleton />;
}
