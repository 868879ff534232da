import { type ReactNode, Suspense } from "react";
import { AppShell } from "../../../components/layout/app-shell.tsx";
import { ADMIN_NAV_ITEMS } from "./admin-nav-items.ts";
import { AdminToaster } from "./admin-toaster.tsx";
import { LoadingRows } from "./state-message.tsx";

/** The console's frame: the dashboard's shell with the console's sidebar. Loaded only once the
 * gate has let an operator in; `actions` are the top bar's (the app puts the profile menu there). */
export default function AdminShell({ actions, children }: { actions: ReactNode; children: ReactNode }) {
  return (
    <>
      <AppShell navItems={ADMIN_NAV_ITEMS} home="/admin" actions={actions}>
        <div data-testid="admin-console">
          {/* Each page's code loads when it is first opened. */}
          <Suspense fallback={<LoadingRows rows={4} label="Loading page" />}>{children}</Suspense>
        </div>
      </AppShell>
      <AdminToaster />
    </>
  );
}
