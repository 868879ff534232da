import { Hourglass } from "lucide-react";

/** An honest stand-in for a screen whose issue has not landed yet: its name and when it comes. */
export function ScreenPlaceholder({ title, arrivesWith }: { title: string; arrivesWith: string }) {
  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-5xl">
      <h1 id="screen-title" className="text-2xl font-semibold tracking-tight text-slate-900">
        {title}
      </h1>
      <div className="mt-6 flex items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
        <Hourglass aria-hidden="true" className="size-5 shrink-0 text-slate-400" />
        <p data-testid="screen-placeholder">This screen arrives with {arrivesWith}.</p>
      </div>
    </section>
  );
}
