import { LOW_BALANCE_THRESHOLD_DEFAULT_GB, LOW_BALANCE_THRESHOLD_MAX_GB } from "@bytetoll/contracts";
import { type FormEvent, useId, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { useLowBalanceThreshold, useSetLowBalanceThreshold } from "../api/low-balance-threshold.ts";

export const LOW_BALANCE_SAVED = "Low-balance alert saved";
export const LOW_BALANCE_LOAD_FAILED = "Could not load your low-balance alert.";
export const LOW_BALANCE_INVALID = `Enter a number of GB from 0.01 to ${LOW_BALANCE_THRESHOLD_MAX_GB}.`;

/** The draft as the server wants it: null = off; undefined = not a valid number of GB. */
function thresholdOf(enabled: boolean, draft: string): number | null | undefined {
  if (!enabled) return null;
  const value = Number(draft.trim());
  return draft.trim() !== "" && value >= 0.01 && value <= LOW_BALANCE_THRESHOLD_MAX_GB ? value : undefined;
}

/** Loads the saved threshold, then shows the form with it. */
export function LowBalanceAlertForm() {
  const saved = useLowBalanceThreshold();
  if (saved.isPending) return <Skeleton className="h-24 w-full" />;
  if (saved.isError)
    return (
      <p role="alert" className="text-sm text-red-600">
        {LOW_BALANCE_LOAD_FAILED}
      </p>
    );
  return <LowBalanceAlertFields saved={saved.data} />;
}

/** Profile: one e-mail when the balance falls below a threshold (default 1 GB), or none. */
function LowBalanceAlertFields({ saved }: { saved: number | null }) {
  const [enabled, setEnabled] = useState(saved !== null);
  const [draft, setDraft] = useState(String(saved ?? LOW_BALANCE_THRESHOLD_DEFAULT_GB));
  const [notice, setNotice] = useState<{ error: boolean; text: string } | null>(null);
  const update = useSetLowBalanceThreshold();
  const ids = { toggle: useId(), amount: useId(), hint: useId() };
  const threshold = thresholdOf(enabled, draft);
  const unchanged = threshold === saved;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (threshold === undefined) return setNotice({ error: true, text: LOW_BALANCE_INVALID });
    if (update.isPending || unchanged) return;
    update.mutate(threshold, {
      onSuccess: () => setNotice({ error: false, text: LOW_BALANCE_SAVED }),
      onError: (error) => setNotice({ error: true, text: error.message }),
    });
  }

  return (
    <form
      noValidate
      onSubmit={submit}
      className="space-y-2"
      aria-busy={update.isPending}
      data-testid="low-balance-alert"
    >
      <div className="flex items-center gap-2">
        <input
          id={ids.toggle}
          type="checkbox"
          checked={enabled}
          onChange={(event) => {
            setEnabled(event.target.checked);
            setNotice(null);
          }}
          className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-500"
        />
        <label htmlFor={ids.toggle} className="text-sm font-medium text-slate-500">
          Low-balance e-mail
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={ids.amount} className="text-sm text-slate-700">
          When my balance falls below
        </label>
        <div className="flex items-center gap-1">
          <input
            id={ids.amount}
            type="number"
            inputMode="decimal"
            min={0.01}
            max={LOW_BALANCE_THRESHOLD_MAX_GB}
            step={0.01}
            value={draft}
            disabled={!enabled}
            onChange={(event) => {
              setDraft(event.target.value);
              setNotice(null);
            }}
            aria-describedby={ids.hint}
            aria-invalid={threshold === undefined}
            className="w-24 rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-900 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none disabled:bg-slate-100 disabled:text-slate-400"
          />
          <span className="text-sm text-slate-700">GB</span>
        </div>
        <Button type="submit" disabled={update.isPending || unchanged} className="shrink-0">
          {update.isPending ? "Saving…" : "Save"}
        </Button>
      </div>
      <p id={ids.hint} className="text-xs text-slate-500">
        One e-mail each time your balance drops below this, with a link to Buy Data.
      </p>
      {notice ? (
        <p
          role={notice.error ? "alert" : "status"}
          className={`text-sm ${notice.error ? "text-red-600" : "text-emerald-700"}`}
        >
          {notice.text}
        </p>
      ) : null}
    </form>
  );
}
