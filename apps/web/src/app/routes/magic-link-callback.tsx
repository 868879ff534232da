import { MagicLinkCallback } from "../../features/auth/components/magic-link-callback.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Signing in");
  return <MagicLinkCallback />;
}
