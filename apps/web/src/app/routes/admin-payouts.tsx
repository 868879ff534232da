import { PayoutsPage } from "../../features/admin/components/payouts-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Payouts · Console");
  return <PayoutsPage />;
}
