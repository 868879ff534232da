import type { SessionUser } from "@bytetoll/contracts";
import type { ReactNode } from "react";
import { Dialog, DialogHeader } from "../../../components/ui/dialog.tsx";
import { ProfileRefundAddressForm } from "./profile-refund-address-form.tsx";
import { ProfileSignOutEverywhere } from "./profile-sign-out-everywhere.tsx";

/** Profile: e-mail, the editable refund address, the low-balance alert and the API token
 * (`balanceAlert`, `apiToken`, given by the app),
 * sign-out everywhere. Closed, the content unmounts: the token is fetched and the draft reset
 * only when it opens. */
export function ProfileDialog({
  user,
  open,
  onOpenChange,
  apiToken,
  balanceAlert,
}: {
  user: SessionUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  apiToken: ReactNode;
  balanceAlert: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} testId="profile-dialog">
      <DialogHeader title="Profile" description="Your account details." />
      <div className="mt-6 space-y-6">
        <div className="text-sm">
          <p className="font-medium text-slate-500">Email</p>
          <p className="mt-1 break-all text-slate-900" data-testid="profile-email">
            {user.email}
          </p>
        </div>
        <ProfileRefundAddressForm saved={user.refund_address} />
        {balanceAlert}
        {apiToken}
        <div className="border-t border-slate-100 pt-4">
          <ProfileSignOutEverywhere />
        </div>
      </div>
    </Dialog>
  );
}
