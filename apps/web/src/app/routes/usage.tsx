import { UsagePage } from "../../features/usage/components/usage-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Usage");
  return <UsagePage />;
}
