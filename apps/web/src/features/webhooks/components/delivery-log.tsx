import { useQuery } from "@tanstack/react-query";
import { formatDateTime } from "../../../lib/format.ts";
import { deliveriesQueryOptions } from "../api/webhooks.ts";

const STATUS_CLASS = {
  delivered: "text-emerald-700",
  pending: "text-amber-700",
  failed: "text-red-700",
} as const;

/** The endpoint's last 100 deliveries: event, status, attempts, and when a retry is due. */
export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const deliveries = useQuery(deliveriesQueryOptions(endpointId));
  if (deliveries.isPending) return <p className="text-sm text-slate-500">Loading deliveries…</p>;
  if (deliveries.isError)
    return (
      <p role="alert" className="text-sm text-red-600">
        Failed to load deliveries: {deliveries.error.message}
      </p>
    );
  if (deliveries.data.length === 0) return <p className="text-sm text-slate-500">No deliveries yet.</p>;
  return (
    <div>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Deliveries</caption>
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th className="py-1 pr-3">Event</th>
            <th className="py-1 pr-3">Status</th>
            <th className="py-1 pr-3">Attempts</th>
            <th className="py-1 pr-3">Next try</th>
            <th className="hidden py-1 sm:table-cell">Created</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.data.map((row) => (
            <tr key={row.id} className="border-t border-slate-100">
              <td className="py-1 pr-3 font-mono text-xs">{row.event}</td>
              <td className={`py-1 pr-3 ${STATUS_CLASS[row.status]}`} title={row.last_error ?? undefined}>
                {row.status}
                {row.last_status_code ? ` (${row.last_status_code})` : ""}
              </td>
              <td className="py-1 pr-3">{row.attempts}</td>
              <td className="py-1 pr-3">{row.next_attempt_at ? formatDateTime(row.next_attempt_at) : "—"}</td>
              <td className="hidden py-1 sm:table-cell">{formatDateTime(row.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
