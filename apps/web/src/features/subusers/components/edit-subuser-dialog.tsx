import { MAX_ALLOWED_DOMAINS, type Subuser } from "@bytetoll/contracts";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogHeader } from "../../../components/ui/dialog.tsx";
import { useUpdateSubuser } from "../api/subusers.ts";
import { draftOf, FIELD, limitGbOf, limitProblem, SubuserLimitFields } from "./subuser-limit-fields.tsx";

/** The fields of "Edit", filled with the sub-user as it is; it starts afresh on every opening. */
function EditSubuserForm({ subuser, onDone }: { subuser: Subuser; onDone: () => void }) {
  const [label, setLabel] = useState(subuser.label);
  const [limit, setLimit] = useState(() => draftOf(subuser.limit_bytes, subuser.limit_period));
  const [sites, setSites] = useState((subuser.allowed_domains ?? []).join("\n"));
  const [problem, setProblem] = useState<string | null>(null);
  const update = useUpdateSubuser(subuser.id);

  function submit(event: FormEvent) {
    event.preventDefault();
    const wrong = limitProblem(limit);
    setProblem(wrong);
    if (wrong !== null) return;
    // One site a line (commas work too); none: any site. The API names a bad entry.
    const entries = sites
      .split(/[\s,]+/)
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    update.mutate(
      {
        label,
        limit_gb: limitGbOf(limit),
        limit_period: limit.period,
        allowed_domains: entries.length > 0 ? entries : null,
      },
      { onSuccess: onDone },
    );
  }

  const message = problem ?? (update.isError ? update.error.message : null);
  return (
    <form onSubmit={submit} className="mt-4 space-y-4">
      <label className="block text-sm font-medium text-slate-700">
        Label
        <input
          className={FIELD}
          value={label}
          maxLength={64}
          required
          onChange={(event) => setLabel(event.target.value)}
        />
      </label>
      <SubuserLimitFields draft={limit} onChange={setLimit} />
      <label className="block text-sm font-medium text-slate-700">
        Allowed sites
        <textarea
          className={FIELD}
          rows={4}
          value={sites}
          placeholder={"example.com\n*.shop.example"}
          aria-describedby="allowed-sites-hint"
          onChange={(event) => setSites(event.target.value)}
        />
        <span id="allowed-sites-hint" className="mt-1 block text-xs font-normal text-slate-500">
          One a line, up to {MAX_ALLOWED_DOMAINS}: "example.com" is that name only, "*.example.com" every name
          below it. Leave empty to allow any site.
        </span>
      </label>
      {message !== null ? (
        <p role="alert" className="text-sm text-red-600">
          {message}
        </p>
      ) : null}
      <Button type="submit" disabled={update.isPending} className="w-full">
        {update.isPending ? "Saving…" : "Save changes"}
      </Button>
    </form>
  );
}

/** "Edit": a sub-user's label, limit (an empty limit removes it) and allowed sites (none: any). */
export function EditSubuserDialog({ subuser }: { subuser: Subuser }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      testId="edit-subuser-dialog"
      trigger={
        <Button variant="secondary" aria-label={`Edit ${subuser.label}`}>
          Edit
        </Button>
      }
    >
      <DialogHeader
        title={`Edit ${subuser.label}`}
        description="A new limit counts this period's use so far; leave it empty for no limit."
      />
      <EditSubuserForm subuser={subuser} onDone={() => setOpen(false)} />
    </Dialog>
  );
}
