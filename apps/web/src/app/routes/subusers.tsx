import { useSession } from "../../features/auth/hooks/use-session.ts";
import { SubusersPage } from "../../features/subusers/components/subusers-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Sub-users");
  const session = useSession();
  return <SubusersPage userId={session.user?.id ?? null} />;
}
