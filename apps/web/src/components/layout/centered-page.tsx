import type { ReactNode } from "react";
import { BrandLogo } from "../ui/brand-logo.tsx";

/** The frame of pages outside the dashboard layout (login, 404): logo, a card, a footer. */
export function CenteredPage({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-indigo-50 via-slate-50 to-slate-50 px-4 py-10">
      <header className="mx-auto flex w-full max-w-md justify-center">
        <BrandLogo />
      </header>
      <main className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-10">
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">{children}</div>
      </main>
      {footer}
    </div>
  );
}
