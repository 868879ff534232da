import { Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogHeader } from "../../../components/ui/dialog.tsx";
import { useCreateSubuser } from "../api/subusers.ts";
import {
  FIELD,
  type LimitDraft,
  limitGbOf,
  limitProblem,
  NO_LIMIT,
  SubuserLimitFields,
} from "./subuser-limit-fields.tsx";

/** "New sub-user": a label, and optionally a limit in MB or GB per period. */
export function NewSubuserDialog({ disabled }: { disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const [label, setLabel] = useState("");
  const [limit, setLimit] = useState<LimitDraft>(NO_LIMIT);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateSubuser();

  function submit(event: FormEvent) {
    event.preventDefault();
    const wrong = limitProblem(limit);
    setProblem(wrong);
    if (wrong !== null) return;
    create.mutate(
      { label, limit_gb: limitGbOf(limit), limit_period: limit.period },
      {
        onSuccess: () => {
          setOpen(false);
          setLabel("");
          setLimit(NO_LIMIT);
        },
      },
    );
  }

  const message = problem ?? (create.isError ? create.error.message : null);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setProblem(null);
        if (!next) create.reset();
      }}
      testId="new-subuser-dialog"
      trigger={
        <Button disabled={disabled}>
          <Plus aria-hidden="true" className="size-4" /> New sub-user
        </Button>
      }
    >
      <DialogHeader
        title="New sub-user"
        description="Its own proxy username and password; its traffic uses your balance."
      />
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
        {message !== null ? (
          <p role="alert" className="text-sm text-red-600">
            {message}
          </p>
        ) : null}
        <Button type="submit" disabled={create.isPending} className="w-full">
          {create.isPending ? "Creating…" : "Create sub-user"}
        </Button>
      </form>
    </Dialog>
  );
}
