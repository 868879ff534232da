import { CustomerPage } from "../../features/admin/components/customer-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Customer · Console");
  return <CustomerPage />;
}
