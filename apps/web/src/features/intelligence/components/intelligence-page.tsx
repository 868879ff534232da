import { HostnamesForm } from "./hostnames-form.tsx";
import { RoutingRulesList } from "./routing-rules-list.tsx";

/** /smart-routings: Intelligence, titled as the menu item that opens it. */
export function IntelligencePage() {
  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-3xl space-y-6">
      <h1 id="screen-title" className="text-2xl font-semibold tracking-tight text-slate-900">
        Smart Routing
      </h1>
      <div className="space-y-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Intelligence</h2>
          <p className="mt-1 text-sm text-slate-500">
            Intelligence continuously learns which sites work over datacenter proxies and routes eligible
            requests over them at the datacenter price. List the sites you plan to access to have them checked
            first.
          </p>
        </div>
        <HostnamesForm />
        <RoutingRulesList />
      </div>
    </section>
  );
}
