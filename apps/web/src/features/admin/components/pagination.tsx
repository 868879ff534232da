import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { buttonClassName } from "../../../components/ui/button.tsx";
import { classNames } from "../../../lib/class-names.ts";

const linkClass = buttonClassName("secondary", "px-3 py-1.5");
const disabledClass = classNames(linkClass, "pointer-events-none opacity-50");

/** "1–25 of 230" and Previous / Next links to the neighbouring pages (the page lives in the URL). */
export function Pagination({
  label,
  page,
  perPage,
  total,
  pageHref,
}: {
  label: string;
  page: number;
  perPage: number;
  total: number;
  pageHref: (page: number) => string;
}) {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const from = total === 0 ? 0 : (page - 1) * perPage + 1;
  const to = Math.min(total, page * perPage);
  return (
    <nav
      aria-label={label}
      className="flex items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 text-sm sm:px-6"
    >
      <p className="text-slate-500">
        {from}–{to} of {total}
      </p>
      <div className="flex gap-2">
        <PageLink to={pageHref(page - 1)} disabled={page <= 1}>
          <ChevronLeft aria-hidden="true" className="size-4" />
          Previous
        </PageLink>
        <PageLink to={pageHref(page + 1)} disabled={page >= lastPage}>
          Next
          <ChevronRight aria-hidden="true" className="size-4" />
        </PageLink>
      </div>
    </nav>
  );
}

function PageLink({ to, disabled, children }: { to: string; disabled: boolean; children: React.ReactNode }) {
  if (disabled)
    return (
      <span aria-disabled="true" className={disabledClass}>
        {children}
      </span>
    );
  return (
    <Link to={to} className={linkClass}>
      {children}
    </Link>
  );
}
