import { ShieldAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { CenteredPage } from "../../../components/layout/centered-page.tsx";
import { LayoutSkeleton } from "../../../components/layout/layout-skeleton.tsx";
import { buttonClassName } from "../../../components/ui/button.tsx";
import { isNotOperator, useAdminMe } from "../api/get-admin-me.ts";
import { errorMessage, StateMessage } from "./state-message.tsx";

export const NOT_OPERATOR_TITLE = "Not an operator";

/** Lets operators through to `children`; anyone else sees why not, and the way back. */
export function AdminGate({ children }: { children: ReactNode }) {
  const me = useAdminMe();
  if (me.isPending) return <LayoutSkeleton />;
  if (me.isError && isNotOperator(me.error)) return <NotOperator />;
  if (me.isError)
    return (
      <CenteredPage>
        <StateMessage error onRetry={() => void me.refetch()}>
          {errorMessage(me.error)}
        </StateMessage>
      </CenteredPage>
    );
  return children;
}

function NotOperator() {
  return (
    <CenteredPage>
      <div className="space-y-4 text-center" data-testid="not-operator">
        <ShieldAlert aria-hidden="true" className="mx-auto size-10 text-amber-500" />
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{NOT_OPERATOR_TITLE}</h1>
        <p className="text-sm text-slate-500">
          The operator's console is for the people who run this ByteToll. Your account is a customer account;
          the server's ADMIN_EMAILS setting names the operators.
        </p>
        <Link to="/" className={buttonClassName("primary", "w-full")}>
          Go back to Dashboard
        </Link>
      </div>
    </CenteredPage>
  );
}
