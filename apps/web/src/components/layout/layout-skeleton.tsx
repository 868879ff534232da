import { Skeleton } from "../ui/skeleton.tsx";

const SIDEBAR_ITEMS = 5;

/** The dashboard frame in grey: a header and a sidebar of 5 items (docs/product.md#routes-and-layout), while the session loads. */
export function LayoutSkeleton() {
  return (
    <div
      className="flex min-h-dvh flex-col bg-slate-50"
      role="status"
      aria-label="Loading"
      data-testid="layout-skeleton"
    >
      <div className="flex h-16 items-center justify-between border-b border-slate-200 bg-white px-4 lg:px-6">
        <Skeleton className="h-7 w-32" />
        <div className="flex items-center gap-3">
          <Skeleton className="h-8 w-16" />
          <Skeleton className="size-9 rounded-full" />
        </div>
      </div>
      <div className="flex flex-1">
        <div className="hidden w-64 shrink-0 space-y-3 border-r border-slate-200 bg-white p-4 lg:block">
          {Array.from({ length: SIDEBAR_ITEMS }, (_, index) => (
            // Identical placeholders with a fixed count: the index is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <Skeleton key={index} className="h-9 w-full" />
          ))}
        </div>
        <div className="flex-1 space-y-4 p-4 lg:p-8">
          <Skeleton className="h-8 w-56" />
          <Skeleton className="h-40 w-full" />
        </div>
      </div>
    </div>
  );
}
