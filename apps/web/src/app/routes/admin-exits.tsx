import { ExitsPage } from "../../features/admin/components/exits-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Exits · Console");
  return <ExitsPage />;
}
