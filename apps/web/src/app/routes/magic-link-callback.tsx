import { MagicLinkCallback } from "../../features/auth/components/magic-link-callback.tsx";

export function Component() {
  return <MagicLinkCallback />;
}
