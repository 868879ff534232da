import type { ReactNode } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";

/** Grey bars while a card's data loads; `rows` of them. */
export function LoadingRows({ rows = 3, label = "Loading" }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-3 p-4 sm:p-6">
      {Array.from({ length: rows }, (_, index) => (
        // Identical placeholders with a fixed count: the index is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Skeleton key={index} className={index === rows - 1 ? "h-5 w-2/3" : "h-5 w-full"} />
      ))}
    </div>
  );
}

/** What a card shows instead of its data: nothing yet (muted) or a failure (alert, with Retry). */
export function StateMessage({
  children,
  error = false,
  onRetry,
}: {
  children: ReactNode;
  error?: boolean;
  onRetry?: () => void;
}) {
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-8 text-center text-sm sm:px-6">
      <p role={error ? "alert" : undefined} className={error ? "text-red-600" : "text-slate-500"}>
        {children}
      </p>
      {error && onRetry ? (
        <Button variant="secondary" className="px-3 py-1.5" onClick={onRetry}>
          Retry
        </Button>
      ) : null}
    </div>
  );
}

/** The message of a failed call, as the API said it. */
export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : "Something went wrong";
}
