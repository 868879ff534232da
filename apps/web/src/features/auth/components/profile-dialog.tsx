import type { SessionUser } from "@bytetoll/contracts";
import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { Button } from "../../../components/ui/button.tsx";

/** Profile (DESIGN §2): the account's e-mail and refund address, read-only for now. */
export function ProfileDialog({
  user,
  open,
  onOpenChange,
}: {
  user: SessionUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none"
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
          <dl className="mt-6 space-y-4 text-sm">
            <div>
              <dt className="font-medium text-slate-500">Email</dt>
              <dd className="mt-1 break-all text-slate-900" data-testid="profile-email">
                {user.email}
              </dd>
            </div>
            <div>
              <dt className="font-medium text-slate-500">Refund address</dt>
              <dd className="mt-1 font-mono break-all text-slate-900" data-testid="profile-refund-address">
                {user.refund_address ? (
                  user.refund_address
                ) : (
                  <span className="font-sans text-slate-400">Not set</span>
                )}
              </dd>
            </div>
          </dl>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
