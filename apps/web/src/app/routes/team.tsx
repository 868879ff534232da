import { TeamPage } from "../../features/team/components/team-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

export function Component() {
  usePageTitle("Team");
  return <TeamPage />;
}
