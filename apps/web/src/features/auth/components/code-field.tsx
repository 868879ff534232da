import { useId } from "react";

export const inputClass =
  "min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 font-mono text-sm text-slate-900 " +
  "focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none";

/** A labelled one-line field for an authenticator or recovery code. */
export function CodeField({
  label,
  value,
  onChange,
  recovery = false,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  recovery?: boolean;
  testId: string;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        inputMode={recovery ? "text" : "numeric"}
        autoComplete="one-time-code"
        spellCheck={false}
        maxLength={recovery ? 16 : 7}
        placeholder={recovery ? "xxxxx-xxxxx" : "123456"}
        className={`${inputClass} w-full`}
        data-testid={testId}
      />
    </div>
  );
}
