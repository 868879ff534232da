import { classNames } from "../../lib/class-names.ts";

/** The ByteToll mark and word; the same drawing as the favicon. */
/** `compactWord` hides the word on phones (screen readers still read it), where the top bar needs
 * the room for the balance and the account menu. */
export function BrandLogo({ className, compactWord = false }: { className?: string; compactWord?: boolean }) {
  return (
    <span className={classNames("inline-flex items-center gap-2 font-semibold text-slate-900", className)}>
      <svg viewBox="0 0 32 32" className="size-7 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-indigo-600" />
        <path d="M9 9h14v3.5h-5.25V23h-3.5V12.5H9z" className="fill-white" />
        <circle cx="22.5" cy="21.5" r="2.5" className="fill-emerald-300" />
      </svg>
      <span className={classNames("text-lg tracking-tight", compactWord && "sr-only sm:not-sr-only")}>
        ByteToll
      </span>
    </span>
  );
}
