import { SubusersPage } from "../../features/subusers/components/subusers-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Sub-users");
  return <SubusersPage />;
}
