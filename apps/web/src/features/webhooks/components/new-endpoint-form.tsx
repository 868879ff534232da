import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint, type WebhookEventType } from "@bytetoll/contracts";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { CopyButton } from "../../../components/ui/copy-button.tsx";
import { useCreateWebhook } from "../api/webhooks.ts";

const SUBSCRIBABLE = WEBHOOK_EVENT_TYPES.filter((type) => type !== "ping");

/** The secret of a new endpoint, shown this once with a copy button. */
function SecretOnce({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone: () => void }) {
  return (
    <div
      role="status"
      className="space-y-2 rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900"
    >
      <p className="font-semibold">Endpoint added. Copy its signing secret now: it is not shown again.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded-lg bg-white px-3 py-2 font-mono text-xs text-slate-900">
          {endpoint.secret}
        </code>
        <CopyButton value={endpoint.secret} label="Copy signing secret" />
      </div>
      <Button variant="secondary" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

/** Adds an endpoint: its URL and the events it wants (docs/product.md#webhooks). */
export function NewEndpointForm({ disabled }: { disabled: boolean }) {
  const create = useCreateWebhook();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>(["order.paid"]);
  const [created, setCreated] = useState<WebhookEndpoint | null>(null);

  if (created) return <SecretOnce endpoint={created} onDone={() => setCreated(null)} />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { url: url.trim(), events },
      {
        onSuccess: (endpoint) => {
          setCreated(endpoint);
          setUrl("");
        },
      },
    );
  };
  const toggle = (type: WebhookEventType) =>
    setEvents((list) => (list.includes(type) ? list.filter((t) => t !== type) : [...list, type]));

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Add a webhook endpoint">
      <label className="block text-sm font-medium text-slate-700">
        Endpoint URL
        <input
          type="url"
          required
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          placeholder="https://example.com/bytetoll-webhook"
          className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
        />
      </label>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Events</legend>
        <div className="mt-1 grid gap-1 sm:grid-cols-2">
          {SUBSCRIBABLE.map((type) => (
            <label key={type} className="flex items-center gap-2 font-mono text-xs text-slate-800">
              <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} />
              {type}
            </label>
          ))}
        </div>
      </fieldset>
      {create.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {create.error.message}
        </p>
      ) : null}
      <Button type="submit" disabled={disabled || create.isPending || events.length === 0}>
        Add endpoint
      </Button>
    </form>
  );
}
