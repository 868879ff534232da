import { CustomersPage } from "../../features/admin/components/customers-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Customers · Console");
  return <CustomersPage />;
}
