import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { CircleUser, LogIn, LogOut, UserRound } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { buttonClassName } from "../../../components/ui/button.tsx";
import { useLogout } from "../hooks/use-logout.ts";
import { useSession } from "../hooks/use-session.ts";
import { ProfileDialog } from "./profile-dialog.tsx";
import { ProfileToaster } from "./profile-toaster.tsx";

const itemClass =
  "flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-700 outline-none " +
  "data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900";

/** Profile menu: Profile and Logout when signed in, a Sign In icon otherwise. `apiToken` is the
 * API token section and `balanceAlert` the low-balance alert section the app puts into the Profile
 * dialog, each null when the role on the open account cannot use it; `billing` says whether the
 * refund address can be changed. */
export function ProfileMenu({
  apiToken,
  balanceAlert,
  billing,
}: {
  apiToken: ReactNode;
  balanceAlert: ReactNode;
  billing: boolean;
}) {
  const session = useSession();
  const logout = useLogout();
  const [profileOpen, setProfileOpen] = useState(false);

  if (session.status !== "signed-in") {
    return (
      <Link
        to="/login"
        aria-label="Sign In"
        title="Sign In"
        className={buttonClassName("ghost")}
        data-testid="sign-in-link"
      >
        <LogIn aria-hidden="true" className="size-5" />
      </Link>
    );
  }

  return (
    <>
      {/* Not modal: a modal menu hides the page from screen readers (aria-hidden) while its links
          and buttons stay focusable, which WCAG 4.1.2 forbids. */}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          className={buttonClassName("ghost", "shrink-0")}
          aria-label="Account menu"
          data-testid="profile-menu"
        >
          <CircleUser aria-hidden="true" className="size-6" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={8}
            className="z-50 min-w-52 rounded-xl border border-slate-200 bg-white p-1 shadow-lg"
          >
            <DropdownMenu.Label className="truncate px-3 py-2 text-xs text-slate-500">
              {session.user.email}
            </DropdownMenu.Label>
            <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
            <DropdownMenu.Item className={itemClass} onSelect={() => setProfileOpen(true)}>
              <UserRound aria-hidden="true" className="size-4" />
              Profile
            </DropdownMenu.Item>
            <DropdownMenu.Item className={itemClass} onSelect={() => void logout()}>
              <LogOut aria-hidden="true" className="size-4" />
              Logout
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <ProfileDialog
        user={session.user}
        open={profileOpen}
        onOpenChange={setProfileOpen}
        apiToken={apiToken}
        balanceAlert={balanceAlert}
        billing={billing}
      />
      <ProfileToaster />
    </>
  );
}
