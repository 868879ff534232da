import { CheckCircle2, ChevronDown, Circle } from "lucide-react";
import { useId, useState } from "react";
import { Link } from "react-router";
import { classNames } from "../../lib/class-names.ts";
import { STORAGE_KEYS } from "../../lib/storage-keys.ts";

export interface GetStartedStep {
  label: string;
  done: boolean;
  /** Where the step is done, while it is not; none when it is done on this page. */
  to?: string;
}

function readCollapsed(): boolean {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.getStartedCollapsed) === "true";
  } catch {
    return false;
  }
}

function storeCollapsed(collapsed: boolean): void {
  try {
    if (collapsed) window.localStorage.setItem(STORAGE_KEYS.getStartedCollapsed, "true");
    else window.localStorage.removeItem(STORAGE_KEYS.getStartedCollapsed);
  } catch {
    // Storage refused: the list still folds, it just forgets on reload.
  }
}

/** A new account's first steps, each ticked when done; folds away (remembered) and is gone once all are done. */
export function GetStartedChecklist({ steps }: { steps: GetStartedStep[] }) {
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const listId = useId();
  const done = steps.filter((step) => step.done).length;
  if (done === steps.length) return null;

  function toggle() {
    setCollapsed((current) => {
      storeCollapsed(!current);
      return !current;
    });
  }

  return (
    <section aria-label="Get started" className="rounded-2xl border border-indigo-200 bg-white shadow-sm">
      <h2 className="text-base font-semibold text-slate-900">
        <button
          type="button"
          onClick={toggle}
          aria-expanded={!collapsed}
          aria-controls={listId}
          className="flex w-full items-center justify-between gap-4 px-4 py-4 text-left sm:px-6"
        >
          <span>Get started</span>
          <span className="ml-auto text-sm font-normal text-slate-500">
            {done} of {steps.length} done
          </span>
          <ChevronDown
            aria-hidden="true"
            className={classNames("size-5 text-slate-500 transition-transform", collapsed && "-rotate-90")}
          />
        </button>
      </h2>
      <ol id={listId} hidden={collapsed} className="space-y-3 border-t border-slate-200 px-4 py-4 sm:px-6">
        {steps.map((step) => (
          <li key={step.label} className="flex items-center gap-3 text-sm">
            {step.done ? (
              <CheckCircle2 aria-label="Done" className="size-5 shrink-0 text-emerald-600" />
            ) : (
              <Circle aria-label="Not done" className="size-5 shrink-0 text-slate-300" />
            )}
            {step.done || !step.to ? (
              <span className={step.done ? "text-slate-500 line-through" : "font-medium text-slate-900"}>
                {step.label}
              </span>
            ) : (
              <Link to={step.to} className="font-medium text-indigo-700 hover:text-indigo-600">
                {step.label}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
