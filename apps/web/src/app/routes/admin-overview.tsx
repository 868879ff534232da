import { OverviewPage } from "../../features/admin/components/overview-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Overview · Console");
  return <OverviewPage />;
}
