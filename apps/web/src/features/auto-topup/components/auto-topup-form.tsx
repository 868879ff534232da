import { type AutoTopupSettings, minimumOrderUsd } from "@bytetoll/contracts";
import { type FormEvent, useId, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { DialogHeader } from "../../../components/ui/dialog.tsx";
import { FALLBACK_PRICE_PER_GB_USD, useConfig } from "../../../lib/config.ts";
import { formatGb, formatMoney } from "../../../lib/format.ts";
import { useSaveAutoTopup } from "../api/auto-topup.ts";
import { type AutoTopupDraft, cardName, draftOf, draftProblems, updateOf } from "./auto-topup-fields.ts";
import { SavedCard } from "./saved-card.tsx";

export const AUTO_TOPUP_SAVED = "Auto top-up saved";

/** The dialog's draft, its problems, the confirmation step and the save. Without a card the draft
 * cannot be on (the card may be removed while the dialog is open). */
function useAutoTopupEditor(settings: AutoTopupSettings) {
  const config = useConfig();
  const minimumUsd = minimumOrderUsd(config.data?.price_per_gb_usd ?? FALLBACK_PRICE_PER_GB_USD, false);
  const [typed, setDraft] = useState<AutoTopupDraft>(() => draftOf(settings));
  const draft = settings.card ? typed : { ...typed, enabled: false };
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<{ error: boolean; text: string } | null>(null);
  const save = useSaveAutoTopup();
  const problems = draftProblems(draft, minimumUsd);

  const edit = (change: Partial<AutoTopupDraft>) => {
    setDraft((current) => ({ ...current, ...change }));
    setNotice(null);
  };
  const send = () =>
    save.mutate(updateOf(draft), {
      onSuccess: () => setNotice({ error: false, text: AUTO_TOPUP_SAVED }),
      onError: (error) => setNotice({ error: true, text: error.message }),
      onSettled: () => setConfirming(false),
    });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (Object.keys(problems).length > 0 || save.isPending) return;
    // Money moves only once the customer has read what will be charged.
    if (draft.enabled) setConfirming(true);
    else send();
  }
  return { draft, problems, confirming, setConfirming, notice, save, edit, send, submit };
}

/** The Auto top-up dialog's content: the card, the settings, and a confirmation before turning on
 * anything that charges the card. `balanceGb` says whether a top-up would be due at once. */
export function AutoTopupForm({
  settings,
  balanceGb,
}: {
  settings: AutoTopupSettings;
  balanceGb: number | null;
}) {
  const { draft, problems, confirming, setConfirming, notice, save, edit, send, submit } =
    useAutoTopupEditor(settings);
  return (
    <div className="space-y-4">
      <DialogHeader
        title="Auto top-up"
        description="Charge your saved card when your balance runs low, so your proxy never stops."
      />
      <SavedCard card={settings.card} />
      {confirming && settings.card ? (
        <Confirmation
          draft={draft}
          card={cardName(settings.card)}
          balanceGb={balanceGb}
          pending={save.isPending}
          onBack={() => setConfirming(false)}
          onConfirm={send}
          turningOn={!settings.enabled}
        />
      ) : (
        <SettingsFields
          draft={draft}
          problems={problems}
          hasCard={settings.card !== null}
          pending={save.isPending}
          onChange={edit}
          onSubmit={submit}
        />
      )}
      {notice ? (
        <p
          role={notice.error ? "alert" : "status"}
          className={`text-sm ${notice.error ? "text-red-600" : "text-emerald-700"}`}
        >
          {notice.text}
        </p>
      ) : null}
      {settings.failures > 0 ? (
        <p className="text-xs text-slate-500">
          {settings.failures} failed {settings.failures === 1 ? "charge" : "charges"} in a row; 3 turn auto
          top-up off.
        </p>
      ) : null}
    </div>
  );
}

/** What will be charged, and when, before it is turned on or changed. */
function Confirmation(props: {
  draft: AutoTopupDraft;
  card: string;
  balanceGb: number | null;
  pending: boolean;
  turningOn: boolean;
  onBack: () => void;
  onConfirm: () => void;
}) {
  const threshold = formatGb(Number(props.draft.threshold));
  const amount = formatMoney(Number(props.draft.amount));
  const dueNow = props.balanceGb !== null && props.balanceGb < Number(props.draft.threshold);
  return (
    <section aria-labelledby="auto-topup-confirm" className="space-y-3 rounded-xl bg-indigo-50 p-4">
      <h3 id="auto-topup-confirm" className="text-sm font-semibold text-slate-900">
        Confirm auto top-up
      </h3>
      <p className="text-sm text-slate-700">
        Your {props.card} will be charged {amount} each time your balance falls below {threshold}, at most{" "}
        {formatMoney(Number(props.draft.cap))} per calendar month (UTC).
      </p>
      {dueNow && props.balanceGb !== null ? (
        <p className="text-sm font-medium text-slate-900">
          Your balance ({formatGb(props.balanceGb)}) is already below {threshold}: {amount} may be charged as
          soon as you confirm.
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={props.onBack} disabled={props.pending}>
          Back
        </Button>
        <Button onClick={props.onConfirm} disabled={props.pending} autoFocus>
          {props.pending ? "Saving…" : props.turningOn ? "Yes, turn on auto top-up" : "Yes, save"}
        </Button>
      </div>
    </section>
  );
}

function SettingsFields(props: {
  draft: AutoTopupDraft;
  problems: ReturnType<typeof draftProblems>;
  hasCard: boolean;
  pending: boolean;
  onChange: (change: Partial<AutoTopupDraft>) => void;
  onSubmit: (event: FormEvent) => void;
}) {
  const ids = { toggle: useId(), hint: useId() };
  const { draft, problems } = props;
  return (
    <form noValidate onSubmit={props.onSubmit} className="space-y-4" aria-busy={props.pending}>
      <div className="flex items-start gap-2">
        <input
          id={ids.toggle}
          type="checkbox"
          checked={draft.enabled}
          disabled={!props.hasCard}
          aria-describedby={props.hasCard ? undefined : ids.hint}
          onChange={(event) => props.onChange({ enabled: event.target.checked })}
          className="mt-0.5 size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-500"
        />
        <div>
          <label htmlFor={ids.toggle} className="text-sm font-medium text-slate-900">
            Top up automatically
          </label>
          {props.hasCard ? null : (
            <p id={ids.hint} className="text-xs text-slate-500">
              Add a card first.
            </p>
          )}
        </div>
      </div>
      <NumberField
        label="When my balance falls below"
        unit="GB"
        value={draft.threshold}
        problem={problems.threshold}
        onChange={(threshold) => props.onChange({ threshold })}
      />
      <NumberField
        label="Add"
        unit="USD"
        value={draft.amount}
        problem={problems.amount}
        onChange={(amount) => props.onChange({ amount })}
      />
      <NumberField
        label="At most per month"
        unit="USD"
        value={draft.cap}
        problem={problems.cap}
        onChange={(cap) => props.onChange({ cap })}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={props.pending || Object.keys(problems).length > 0}>
          {props.pending ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}

function NumberField(props: {
  label: string;
  unit: string;
  value: string;
  problem: string | undefined;
  onChange: (value: string) => void;
}) {
  const ids = { input: useId(), problem: useId() };
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label htmlFor={ids.input} className="text-sm text-slate-700">
          {props.label}
        </label>
        <div className="flex items-center gap-1">
          <input
            id={ids.input}
            type="text"
            inputMode="decimal"
            value={props.value}
            onChange={(event) => props.onChange(event.target.value)}
            aria-invalid={props.problem !== undefined}
            aria-describedby={props.problem ? ids.problem : undefined}
            className="w-28 rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-900 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none"
          />
          <span className="w-9 text-sm text-slate-700">{props.unit}</span>
        </div>
      </div>
      {props.problem ? (
        <p id={ids.problem} className="text-xs text-red-600">
          {props.problem}
        </p>
      ) : null}
    </div>
  );
}
