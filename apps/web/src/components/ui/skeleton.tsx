import { classNames } from "../../lib/class-names.ts";

/** A grey placeholder block; purely decorative, so hidden from assistive technology. */
export function Skeleton({ className }: { className?: string }) {
  return (
    <div aria-hidden="true" className={classNames("animate-pulse rounded-md bg-slate-200", className)} />
  );
}
