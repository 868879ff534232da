import { WebhooksPage } from "../../features/webhooks/components/webhooks-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Webhooks");
  return <WebhooksPage />;
}
