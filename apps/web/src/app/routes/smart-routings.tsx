import { IntelligencePage } from "../../features/intelligence/components/intelligence-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Smart Routing");
  return <IntelligencePage />;
}
