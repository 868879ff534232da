import { type FormEvent, type ReactNode, useId } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogHeader } from "../../../components/ui/dialog.tsx";
import { humanMessage } from "./human-message.ts";
import { errorMessage } from "./state-message.tsx";

/**
 * Every operator action goes through one of these: it says exactly what will happen, may ask for
 * fields (`children`), and shows the API's refusal inline; the caller closes it on success.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  consequence,
  confirmLabel,
  danger = false,
  pending,
  error,
  onConfirm,
  testId,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What will happen, in plain words: who, how much, what they will notice. */
  consequence: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  testId?: string;
  children?: ReactNode;
}) {
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!pending) onConfirm();
  }
  return (
    <Dialog open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))} testId={testId}>
      <DialogHeader title={title} description={consequence} />
      <form onSubmit={submit} className="mt-5 space-y-4" noValidate>
        {children}
        {error ? (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            {humanMessage(errorMessage(error))}
          </p>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <Button
            type="submit"
            disabled={pending}
            className={danger ? "bg-red-600 hover:bg-red-700 disabled:hover:bg-red-600" : undefined}
          >
            {pending ? "Working…" : confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

const fieldClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";

/** A labelled input inside a dialog or filter bar. */
export function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: ReactNode;
  /** Draws the control with these props, so the label points at it. */
  children: (control: { className: string; id: string }) => ReactNode;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children({ className: fieldClass, id })}
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
    </div>
  );
}
