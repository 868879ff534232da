import { DealsPage } from "../../features/admin/components/deals-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Deals · Console");
  return <DealsPage />;
}
