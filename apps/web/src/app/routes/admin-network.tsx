import { NetworkPage } from "../../features/admin/components/network-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Network · Console");
  return <NetworkPage />;
}
