import { DEAL_UNAVAILABLE } from "@bytetoll/contracts";
import { Link } from "react-router";
import { buttonClassName } from "../../../components/ui/button.tsx";

export function DealUnavailable() {
  return (
    <div className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
      <p role="alert" className="text-sm text-slate-700">
        {DEAL_UNAVAILABLE}
      </p>
      <Link to="/" className={buttonClassName("secondary")}>
        Back to Dashboard
      </Link>
    </div>
  );
}
