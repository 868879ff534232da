import { type ReactNode, useId } from "react";
import { classNames } from "../../../lib/class-names.ts";

/** A white card with a titled header, like the dashboard's; `actions` sit at the header's right. */
export function AdminCard({
  title,
  actions,
  className,
  children,
}: {
  title: ReactNode;
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className={classNames("min-w-0 rounded-2xl border border-slate-200 bg-white shadow-sm", className)}
    >
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-3 sm:px-6">
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

/** A screen's title, a line under it and its main actions. */
export function AdminPageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        <h1 id="screen-title" className="text-2xl font-semibold tracking-tight break-words text-slate-900">
          {title}
        </h1>
        {description ? <p className="mt-1 text-sm text-slate-500">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

/** A page of the console: its landmark, labelled by the header's title. */
export function AdminScreen({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-6xl space-y-6">
      {children}
    </section>
  );
}
