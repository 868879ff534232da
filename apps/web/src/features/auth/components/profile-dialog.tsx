import type { SessionUser } from "@bytetoll/contracts";
import type { ReactNode } from "react";
import { Dialog, DialogHeader } from "../../../components/ui/dialog.tsx";
import { ProfileBillingForm } from "./profile-billing-form.tsx";
import { ProfileRefundAddressForm } from "./profile-refund-address-form.tsx";
import { ProfileSignOutEverywhere } from "./profile-sign-out-everywhere.tsx";
import { SecondFactorSettings } from "./second-factor-settings.tsx";

/** Profile: e-mail, the editable refund address (when `billing`: the role may change it), the
 * low-balance alert and the API token (`balanceAlert`, `apiToken`, given by the app, null when the
 * role cannot use them), the second factors, sign-out everywhere. Closed, the content unmounts: the token is fetched and the draft reset
 * only when it opens. */
export function ProfileDialog({
  user,
  open,
  onOpenChange,
  apiToken,
  balanceAlert,
  billing = true,
}: {
  user: SessionUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  apiToken: ReactNode;
  balanceAlert: ReactNode;
  billing?: boolean;
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
        {billing ? <ProfileRefundAddressForm saved={user.refund_address} /> : null}
        {billing ? <ProfileBillingForm /> : null}
        {balanceAlert}
        {apiToken}
        <SecondFactorSettings />
        <div className="border-t border-slate-100 pt-4">
          <ProfileSignOutEverywhere />
        </div>
      </div>
    </Dialog>
  );
}
