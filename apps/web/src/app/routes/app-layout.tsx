import { type Permission, roleAllows } from "@bytetoll/contracts";
import { Navigate, Outlet, useLocation, useSearchParams } from "react-router";
import { AppShell } from "../../components/layout/app-shell.tsx";
import { HelpLinks } from "../../components/layout/help-links.tsx";
import { LayoutSkeleton } from "../../components/layout/layout-skeleton.tsx";
import { NAV_ITEMS, OPERATOR_CONSOLE_ITEM } from "../../components/layout/nav-items.ts";
import { ProfileMenu } from "../../features/auth/components/profile-menu.tsx";
import { useSession } from "../../features/auth/hooks/use-session.ts";
import { loginPathFor } from "../../features/auth/login-request.ts";
import { BalanceBadge } from "../../features/balance/components/balance-badge.tsx";
import { LowBalanceAlertForm } from "../../features/balance/components/low-balance-alert-form.tsx";
import { ProfileApiToken } from "../../features/connect/components/profile-api-token.tsx";
import { AccountSwitcher, useCurrentRole } from "../../features/team/components/account-switcher.tsx";
import { useConfig } from "../../lib/config.ts";

/** docs/product.md#sign-in: anonymous visitors may see these layout pages; every other one needs a sign-in. */
const OPEN_TO_ANONYMOUS = new Set(["/connect"]);

export function Component() {
  const session = useSession();
  const { data: config } = useConfig();
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  // The session says who is an operator, so a customer's page never asks the admin API (a 403).
  const operator = session.status === "signed-in" && session.user.is_operator;
  const role = useCurrentRole();
  // Until the role is known, items that need a permission wait; the server checks every call anyway.
  const may = (permission: Permission) => role !== null && roleAllows(role, permission);
  const navItems = NAV_ITEMS.filter((item) => !item.permission || may(item.permission));

  if (session.status === "loading") return <LayoutSkeleton />;
  if (session.status === "anonymous" && !OPEN_TO_ANONYMOUS.has(pathname))
    return <Navigate to={loginPathFor(search)} replace />;

  return (
    <AppShell
      navItems={operator ? [...navItems, OPERATOR_CONSOLE_ITEM] : navItems}
      actions={
        <>
          {session.status === "signed-in" ? <AccountSwitcher /> : null}
          {session.status === "signed-in" ? <BalanceBadge userId={session.user.id} /> : null}
          <HelpLinks config={config} />
          <ProfileMenu
            apiToken={may("tokens:write") ? <ProfileApiToken /> : null}
            balanceAlert={may("billing:write") ? <LowBalanceAlertForm /> : null}
            billing={may("billing:write")}
          />
        </>
      }
    >
      <Outlet />
    </AppShell>
  );
}
