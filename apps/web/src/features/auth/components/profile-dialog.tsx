import type { SessionUser } from "@bytetoll/contracts";
import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { ProfileRefundAddressForm } from "./profile-refund-address-form.tsx";
import { ProfileSignOutEverywhere } from "./profile-sign-out-everywhere.tsx";

/** Profile: e-mail, the editable refund address, the API token (`apiToken`, given by the app),
 * sign-out everywhere. Closed, the content unmounts: the token is fetched and the draft reset
 * only when it opens. */
export function ProfileDialog({
  user,
  open,
  onOpenChange,
  apiToken,
}: {
  user: SessionUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  apiToken: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-4 shadow-xl focus:outline-none sm:p-6"
          data-testid="profile-dialog"
        >
          <div className="flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="text-lg font-semibold text-slate-900">Profile</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-slate-500">
                Your account details.
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <Button variant="ghost" aria-label="Close">
                <X aria-hidden="true" className="size-5" />
              </Button>
            </Dialog.Close>
          </div>
          <div className="mt-6 space-y-6">
            <div className="text-sm">
              <p className="font-medium text-slate-500">Email</p>
              <p className="mt-1 break-all text-slate-900" data-testid="profile-email">
                {user.email}
              </p>
            </div>
            <ProfileRefundAddressForm saved={user.refund_address} />
            {apiToken}
            <div className="border-t border-slate-100 pt-4">
              <ProfileSignOutEverywhere />
            </div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
