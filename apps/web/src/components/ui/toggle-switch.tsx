import type { ReactNode } from "react";
import { classNames } from "../../lib/class-names.ts";

export interface ToggleSwitchProps {
  /** The switch's name for assistive tech, and the text beside it unless `title` is given. */
  label: string;
  /** What the text beside the switch says when it should follow the state ("Disabled"). */
  title?: string;
  hint: ReactNode;
  checked: boolean;
  onChange(checked: boolean): void;
}

/** An on/off switch with its label (role="switch", so assistive tech reads the state). */
export function ToggleSwitch({ label, title, hint, checked, onChange }: ToggleSwitchProps) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <p className="text-sm font-medium text-slate-900">{title ?? label}</p>
        <p className="text-xs text-slate-500">{hint}</p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={label}
        onClick={() => onChange(!checked)}
        className={classNames(
          "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors",
          "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2",
          checked ? "bg-indigo-600" : "bg-slate-300",
        )}
      >
        <span
          aria-hidden="true"
          className={classNames(
            "inline-block size-5 rounded-full bg-white shadow transition-transform",
            checked ? "translate-x-5" : "translate-x-0.5",
          )}
        />
      </button>
    </div>
  );
}
