import { useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { useLogoutAll } from "../api/logout-all.ts";
import { useLogout } from "../hooks/use-logout.ts";
import { PROFILE_TOASTER_ID } from "./profile-toaster.tsx";

/** Ends every session (other devices included), then signs this browser out the normal way. */
export function ProfileSignOutEverywhere() {
  const [confirming, setConfirming] = useState(false);
  const logoutAll = useLogoutAll();
  const logout = useLogout();

  function confirm() {
    logoutAll.mutate(undefined, {
      onSuccess: () => logout(),
      onError: (error) => {
        setConfirming(false);
        toast.error(error.message, { toasterId: PROFILE_TOASTER_ID });
      },
    });
  }

  if (!confirming) {
    return (
      <Button variant="secondary" className="w-full sm:w-auto" onClick={() => setConfirming(true)}>
        Sign out everywhere
      </Button>
    );
  }
  return (
    <fieldset
      aria-label="Confirm sign out everywhere"
      className="min-w-0 rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <p>Sign out on every device and browser, this one included? Your API token keeps working.</p>
      <div className="mt-3 flex flex-wrap gap-2">
        {/* Focus lands on the decision so keyboard users can answer at once. */}
        <Button autoFocus onClick={confirm} disabled={logoutAll.isPending}>
          {logoutAll.isPending ? "Signing out…" : "Yes, sign out everywhere"}
        </Button>
        <Button variant="secondary" onClick={() => setConfirming(false)} disabled={logoutAll.isPending}>
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}
