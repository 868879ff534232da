import { PolicyPage } from "../../features/admin/components/policy-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Policy · Console");
  return <PolicyPage />;
}
