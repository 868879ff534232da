import { OrdersPage } from "../../features/admin/components/orders-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Orders · Console");
  return <OrdersPage />;
}
