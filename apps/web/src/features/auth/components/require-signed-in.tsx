import type { ReactNode } from "react";
import { Navigate, useSearchParams } from "react-router";
import { useSession } from "../hooks/use-session.ts";
import { loginPathFor } from "../login-request.ts";

/** Renders its children for a signed-in user; anonymous visitors go to /login (docs/product.md#routes-and-layout). */
export function RequireSignedIn({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const session = useSession();
  const [search] = useSearchParams();
  if (session.status === "loading") return fallback;
  if (session.status === "anonymous") return <Navigate to={loginPathFor(search)} replace />;
  return children;
}
