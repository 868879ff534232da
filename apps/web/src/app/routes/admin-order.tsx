import { OrderPage } from "../../features/admin/components/order-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Order · Console");
  return <OrderPage />;
}
