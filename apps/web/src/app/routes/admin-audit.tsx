import { AuditLogPage } from "../../features/admin/components/audit-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Audit log · Console");
  return <AuditLogPage />;
}
