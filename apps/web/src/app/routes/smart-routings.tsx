import { IntelligencePage } from "../../features/intelligence/components/intelligence-page.tsx";

export function Component() {
  return <IntelligencePage />;
}
