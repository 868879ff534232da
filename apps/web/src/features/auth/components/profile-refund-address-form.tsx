import { type FormEvent, useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { useUpdateProfile } from "../api/update-profile.ts";
import { PROFILE_TOASTER_ID } from "./profile-toaster.tsx";

export const REFUND_ADDRESS_SAVED = "Refund address saved";

/** The one editable field of the profile; the server validates and normalises it. */
export function ProfileRefundAddressForm({ saved }: { saved: string | null }) {
  const [draft, setDraft] = useState(saved ?? "");
  const update = useUpdateProfile();
  const inputId = useId();
  const hintId = useId();
  const unchanged = draft.trim() === (saved ?? "");

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending || unchanged) return;
    update.mutate(draft, {
      onSuccess: (user) => {
        setDraft(user.refund_address ?? "");
        toast.success(REFUND_ADDRESS_SAVED, { toasterId: PROFILE_TOASTER_ID });
      },
      onError: (error) => toast.error(error.message, { toasterId: PROFILE_TOASTER_ID }),
    });
  }

  return (
    <form onSubmit={submit} className="space-y-2" aria-busy={update.isPending}>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-500">
        Refund address
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={inputId}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="Not set"
          autoComplete="off"
          spellCheck={false}
          maxLength={128}
          aria-describedby={hintId}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 font-mono text-sm text-slate-900 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none"
          data-testid="profile-refund-address"
        />
        <Button type="submit" disabled={update.isPending || unchanged} className="shrink-0">
          {update.isPending ? "Saving…" : "Save"}
        </Button>
      </div>
      <p id={hintId} className="text-xs text-slate-500">
        Where refunds are sent: a wallet address (0x… or a Solana address); leave empty to clear.
      </p>
    </form>
  );
}
