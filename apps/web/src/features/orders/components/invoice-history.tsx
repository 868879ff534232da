import type { InvoiceSummary } from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { formatDateTime, formatMoney } from "../../../lib/format.ts";
import { useHistory } from "../api/get-history.ts";
import { downloadInvoice, invoicesQueryOptions } from "../api/invoices.ts";

const KIND_LABEL: Record<InvoiceSummary["kind"], string> = { invoice: "Invoice", credit_note: "Credit note" };

function DownloadButton({ number }: { number: string }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex flex-col items-end">
      <Button
        variant="secondary"
        className="py-1 text-xs"
        onClick={() =>
          downloadInvoice(number).then(
            () => setError(null),
            (failed: Error) => setError(failed.message),
          )
        }
      >
        <Download aria-hidden="true" className="size-3.5" />
        Download<span className="sr-only"> {number}</span>
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}

/** docs/product.md#invoices: one invoice per paid order, a credit note per refund; shown once
 * there is one. Read again whenever the history changes (a payment arrived, an order was refunded). */
export function InvoiceHistory() {
  const invoices = useQuery(invoicesQueryOptions());
  const historyUpdatedAt = useHistory(1).dataUpdatedAt;
  const { refetch } = invoices;
  useEffect(() => {
    if (historyUpdatedAt) void refetch();
  }, [historyUpdatedAt, refetch]);
  if (!invoices.data || invoices.data.length === 0) return null;
  return (
    <section
      aria-labelledby="invoices-title"
      className="rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <h2
        id="invoices-title"
        className="border-b border-slate-200 px-4 py-4 text-base font-semibold text-slate-900 sm:px-6"
      >
        Invoices
      </h2>
      <ul className="divide-y divide-slate-100 text-sm">
        {invoices.data.map((document) => (
          <li
            key={document.number}
            className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6"
            data-testid="invoice-row"
          >
            <span className="font-mono font-medium text-slate-900">{document.number}</span>
            <span className="text-slate-700">{KIND_LABEL[document.kind]}</span>
            <span className="text-slate-500">{formatDateTime(document.issued_at)}</span>
            <span className="text-slate-900">
              {formatMoney(document.kind === "credit_note" ? -document.amount_usd : document.amount_usd)}
            </span>
            <DownloadButton number={document.number} />
          </li>
        ))}
      </ul>
    </section>
  );
}
