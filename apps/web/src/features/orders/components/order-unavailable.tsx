import { ArrowLeft, SearchX } from "lucide-react";
import { Link } from "react-router";
import { buttonClassName } from "../../../components/ui/button.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { errorMessage } from "../hooks/use-start-purchase.ts";

const ORDER_NOT_FOUND_HINT = "Check the link, or find the order in your purchase history.";

/** The order page when the order cannot be shown: an unknown id (or someone else's order) says so
 * plainly; either way the customer has a way back to the dashboard and its purchase history. */
export function OrderUnavailable({ error }: { error: unknown }) {
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <section
      aria-labelledby="order-unavailable-title"
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm"
      data-testid="order-unavailable"
    >
      <SearchX aria-hidden="true" className="mx-auto size-10 text-slate-400" />
      <h1 id="order-unavailable-title" className="text-xl font-semibold tracking-tight text-slate-900">
        {notFound ? "Order not found" : "We couldn't load this order"}
      </h1>
      <p role="alert" className="text-sm text-slate-600">
        {notFound ? ORDER_NOT_FOUND_HINT : errorMessage(error, "Failed to fetch transaction")}
      </p>
      <Link to="/" className={buttonClassName("primary")}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Go back to Dashboard
      </Link>
    </section>
  );
}
