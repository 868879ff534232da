import type { WebhookEndpoint } from "@bytetoll/contracts";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { useDeleteWebhook, useTestWebhook } from "../api/webhooks.ts";
import { DeliveryLog } from "./delivery-log.tsx";

/** One endpoint: its URL, events and secret's end, a test ping, removal and its delivery log. */
export function EndpointItem({ endpoint }: { endpoint: WebhookEndpoint }) {
  const test = useTestWebhook(endpoint.id);
  const remove = useDeleteWebhook();
  const [showLog, setShowLog] = useState(false);
  return (
    <li className="space-y-3 rounded-xl border border-slate-200 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-all font-mono text-sm text-slate-900">{endpoint.url}</p>
          <p className="mt-1 text-xs text-slate-500">
            {endpoint.events.join(", ")} · secret ends in <span className="font-mono">{endpoint.secret}</span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            onClick={() => test.mutate(undefined, { onSuccess: () => setShowLog(true) })}
            disabled={test.isPending}
          >
            Send test
          </Button>
          <Button variant="secondary" onClick={() => setShowLog((open) => !open)} aria-expanded={showLog}>
            {showLog ? "Hide deliveries" : "Deliveries"}
          </Button>
          <Button variant="secondary" onClick={() => remove.mutate(endpoint.id)} disabled={remove.isPending}>
            Remove
          </Button>
        </div>
      </div>
      {test.isError || remove.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {(test.error ?? remove.error)?.message}
        </p>
      ) : null}
      {showLog ? <DeliveryLog endpointId={endpoint.id} /> : null}
    </li>
  );
}
