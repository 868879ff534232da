import type { Subuser } from "@bytetoll/contracts";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { CopyButton } from "../../../components/ui/copy-button.tsx";
import { Dialog, DialogHeader } from "../../../components/ui/dialog.tsx";
import { ToggleSwitch } from "../../../components/ui/toggle-switch.tsx";
import { formatDataAmount } from "../../../lib/format.ts";
import { PERIOD_LABELS } from "../../../lib/subuser-periods.ts";
import { useDeleteSubuser, useRegenerateSubuserPassword, useUpdateSubuser } from "../api/subusers.ts";
import { EditSubuserDialog } from "./edit-subuser-dialog.tsx";

/** Whether its requests are served, as the gateway judges them: switched off, or at its limit. */
function statusHint(subuser: Subuser): string {
  if (!subuser.enabled) return "Its requests are refused";
  if (subuser.limit_bytes !== null && subuser.used_bytes >= subuser.limit_bytes) {
    return subuser.limit_period === "total"
      ? "At its limit: its requests are refused until you raise it"
      : "At its limit: its requests are refused until the limit restarts or you raise it";
  }
  return "Its requests are served";
}

/** Used / limit with a bar; "no limit" when there is none. */
function UsageBar({ subuser }: { subuser: Subuser }) {
  const used = formatDataAmount(subuser.used_bytes / 1e9);
  if (subuser.limit_bytes === null) {
    return <p className="text-sm text-slate-600">{used} used · no limit</p>;
  }
  const share = Math.min(1, subuser.used_bytes / subuser.limit_bytes);
  return (
    <div>
      <p className="text-sm text-slate-600">
        {used} of {formatDataAmount(subuser.limit_bytes / 1e9)} {PERIOD_LABELS[subuser.limit_period]}
      </p>
      <div
        role="progressbar"
        aria-label={`${subuser.label}: limit used`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 100)}
        className="mt-1 h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={share >= 1 ? "h-full bg-red-500" : "h-full bg-indigo-600"}
          style={{ width: `${share * 100}%` }}
        />
      </div>
    </div>
  );
}

function DeleteButton({ subuser }: { subuser: Subuser }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteSubuser(subuser.id);
  return (
    <Dialog open={open} onOpenChange={setOpen} trigger={<Button variant="secondary">Delete</Button>}>
      <DialogHeader
        title={`Delete ${subuser.label}?`}
        description="Its username and password stop working within a second and its open connections close. Its past usage stays in your statistics."
      />
      {remove.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {remove.error.message}
        </p>
      ) : null}
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
        <Button
          disabled={remove.isPending}
          onClick={() => remove.mutate(undefined, { onSuccess: () => setOpen(false) })}
        >
          Delete sub-user
        </Button>
      </div>
    </Dialog>
  );
}

/** One sub-user: credentials with copy buttons, its use, the enabled switch and its actions. */
export function SubuserItem({ subuser }: { subuser: Subuser }) {
  const update = useUpdateSubuser(subuser.id);
  const regenerate = useRegenerateSubuserPassword(subuser.id);
  return (
    <li className="space-y-3 rounded-xl border border-slate-200 p-4" data-testid="subuser-item">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 className="text-base font-semibold break-all text-slate-900">{subuser.label}</h3>
        <div className="min-w-44 max-w-72">
          <ToggleSwitch
            label="Enabled"
            title={subuser.enabled ? "Enabled" : "Disabled"}
            hint={statusHint(subuser)}
            checked={subuser.enabled}
            onChange={(enabled) => update.mutate({ enabled })}
          />
        </div>
      </div>
      <dl className="grid gap-2 text-sm sm:grid-cols-2">
        <div className="flex min-w-0 items-center gap-2">
          <dt className="text-slate-500">Username</dt>
          <dd className="flex min-w-0 items-center gap-2">
            <span className="truncate font-mono" data-testid="subuser-username">
              {subuser.username}
            </span>
            <CopyButton value={subuser.username} label={`Copy ${subuser.label} username`} />
          </dd>
        </div>
        <div className="flex min-w-0 items-center gap-2">
          <dt className="text-slate-500">Password</dt>
          <dd className="flex min-w-0 items-center gap-2">
            <span className="truncate font-mono">{"•".repeat(12)}</span>
            <CopyButton value={subuser.password} label={`Copy ${subuser.label} password`} />
          </dd>
        </div>
      </dl>
      <p className="text-sm break-words text-slate-600" data-testid="subuser-sites">
        <span className="text-slate-500">Sites: </span>
        {subuser.allowed_domains === null ? "any" : subuser.allowed_domains.join(", ")}
      </p>
      <UsageBar subuser={subuser} />
      {update.isError || regenerate.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {(update.error ?? regenerate.error)?.message}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          disabled={regenerate.isPending}
          onClick={() => regenerate.mutate(undefined)}
        >
          Regenerate password
        </Button>
        <EditSubuserDialog subuser={subuser} />
        <DeleteButton subuser={subuser} />
      </div>
    </li>
  );
}
