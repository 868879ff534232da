import { MarginsPage } from "../../features/admin/components/margins-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Margins · Console");
  return <MarginsPage />;
}
