import { useSession } from "../../features/auth/hooks/use-session.ts";
import { ZeroBalanceWarning } from "../../features/balance/components/zero-balance-warning.tsx";
import { ConnectPage } from "../../features/connect/components/connect-page.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

/** /connect: open to anonymous visitors (temporary credentials), the account's own when signed in. */
export function Component() {
  usePageTitle("Connect to Proxies");
  const session = useSession();
  const audience = session.status;
  return (
    <ConnectPage audience={audience} notice={audience === "signed-in" ? <ZeroBalanceWarning /> : null} />
  );
}
