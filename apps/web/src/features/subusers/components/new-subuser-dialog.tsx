import { SUBUSER_LIMIT_PERIODS, type SubuserLimitPeriod } from "@bytetoll/contracts";
import { Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogHeader } from "../../../components/ui/dialog.tsx";
import { PERIOD_LABELS } from "../../../lib/subuser-periods.ts";
import { useCreateSubuser } from "../api/subusers.ts";

const FIELD = "mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm";

/** "New sub-user": a label, and optionally a limit in GB per period. */
export function NewSubuserDialog({ disabled }: { disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const [label, setLabel] = useState("");
  const [limit, setLimit] = useState("");
  const [period, setPeriod] = useState<SubuserLimitPeriod>("total");
  const create = useCreateSubuser();

  function submit(event: FormEvent) {
    event.preventDefault();
    const limitGb = limit.trim() === "" ? null : Number(limit);
    create.mutate(
      { label, limit_gb: limitGb, limit_period: period },
      {
        onSuccess: () => {
          setOpen(false);
          setLabel("");
          setLimit("");
          setPeriod("total");
        },
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
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
        <div className="grid grid-cols-2 gap-3">
          <label className="block text-sm font-medium text-slate-700">
            Limit (GB)
            <input
              className={FIELD}
              type="number"
              min="0.01"
              step="0.01"
              inputMode="decimal"
              placeholder="No limit"
              value={limit}
              onChange={(event) => setLimit(event.target.value)}
            />
          </label>
          <label className="block text-sm font-medium text-slate-700">
            Period
            <select
              className={FIELD}
              value={period}
              onChange={(event) => setPeriod(event.target.value as SubuserLimitPeriod)}
            >
              {SUBUSER_LIMIT_PERIODS.map((value) => (
                <option key={value} value={value}>
                  {PERIOD_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
        </div>
        {create.isError ? (
          <p role="alert" className="text-sm text-red-600">
            {create.error.message}
          </p>
        ) : null}
        <Button type="submit" disabled={create.isPending} className="w-full">
          {create.isPending ? "Creating…" : "Create sub-user"}
        </Button>
      </form>
    </Dialog>
  );
}
