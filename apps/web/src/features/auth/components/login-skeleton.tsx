import { Skeleton } from "../../../components/ui/skeleton.tsx";

/** Stands in for the login card while the session initialises (docs/product.md#routes-and-layout). */
export function LoginSkeleton() {
  return (
    <div className="space-y-5" role="status" aria-label="Loading" data-testid="login-skeleton">
      <Skeleton className="mx-auto h-7 w-48" />
      <Skeleton className="mx-auto h-4 w-64" />
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-10 w-full" />
    </div>
  );
}
