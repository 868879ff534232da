import { useId } from "react";

interface AmountFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  min: number;
  step: number;
  /** Whole units (GB) or money with cents (USD): the keyboard phones show. */
  inputMode: "numeric" | "decimal";
  /** Why the amount cannot be used, shown under the field and announced with it. */
  problem: string | null;
}

/** The labelled number input of a purchase amount, with its validation message. */
export function AmountField({ label, value, onChange, min, step, inputMode, problem }: AmountFieldProps) {
  const inputId = useId();
  const problemId = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={inputId}
        type="number"
        inputMode={inputMode}
        min={min}
        step={step}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={problem !== null}
        aria-describedby={problem ? problemId : undefined}
        className="block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
      />
      {problem ? (
        <p id={problemId} className="text-sm text-red-600">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
