import type { ReactNode } from "react";
import { Navigate } from "react-router";
import { useSession } from "../hooks/use-session.ts";

/** Renders its children for a signed-in user; anonymous visitors go to /login (docs/product.md#routes-and-layout). */
export function RequireSignedIn({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const session = useSession();
  if (session.status === "loading") return fallback;
  if (session.status === "anonymous") return <Navigate to="/login" replace />;
  return children;
}
