import { MAX_WEBHOOK_ENDPOINTS } from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { webhooksQueryOptions } from "../api/webhooks.ts";
import { EndpointItem } from "./endpoint-item.tsx";
import { NewEndpointForm } from "./new-endpoint-form.tsx";

const CARD = "rounded-2xl border border-slate-200 bg-white p-5 shadow-sm";

/** /webhooks (docs/product.md#webhooks): the account's endpoints and a form to add one. */
export function WebhooksPage() {
  const endpoints = useQuery(webhooksQueryOptions());
  const count = endpoints.data?.length ?? 0;
  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 id="screen-title" className="text-2xl font-semibold tracking-tight text-slate-900">
          Webhooks
        </h1>
        <p className="mt-1 text-sm text-slate-500">
          ByteToll posts signed events to your systems. Check the ByteToll-Signature header with your
          endpoint's secret: <code className="font-mono text-xs">verifyWebhook(body, header, secret)</code> in
          the Node.js and PHP SDKs does it.
        </p>
      </div>
      <div className={CARD}>
        <h2 className="mb-3 text-lg font-semibold text-slate-900">Add an endpoint</h2>
        {count >= MAX_WEBHOOK_ENDPOINTS ? (
          <p className="text-sm text-slate-600">
            You have {MAX_WEBHOOK_ENDPOINTS} endpoints, the most an account can have.
          </p>
        ) : (
          <NewEndpointForm disabled={endpoints.isPending} />
        )}
      </div>
      <div className={CARD}>
        <h2 className="mb-3 text-lg font-semibold text-slate-900">Endpoints</h2>
        {endpoints.isPending ? <p className="text-sm text-slate-500">Loading endpoints…</p> : null}
        {endpoints.isError ? (
          <p role="alert" className="text-sm text-red-600">
            Failed to load endpoints: {endpoints.error.message}
          </p>
        ) : null}
        {endpoints.data?.length === 0 ? <p className="text-sm text-slate-500">No endpoints yet.</p> : null}
        <ul className="space-y-3">
          {endpoints.data?.map((endpoint) => (
            <EndpointItem key={endpoint.id} endpoint={endpoint} />
          ))}
        </ul>
      </div>
    </section>
  );
}
