import { DayUsageCard } from "./day-usage-card.tsx";
import { DomainUsageCard } from "./domain-usage-card.tsx";
import { ProxyTypeUsageCard } from "./proxy-type-usage-card.tsx";
import { UsageExport } from "./usage-export.tsx";

/** /usage (docs/product.md#routes-and-layout): three cards and the CSV export. Days are UTC days, as the gateway files them. */
export function UsagePage() {
  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-5xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 id="screen-title" className="text-2xl font-semibold tracking-tight text-slate-900">
            Usage
          </h1>
          <p className="mt-1 text-sm text-slate-500">Days are UTC. New traffic shows within seconds.</p>
        </div>
        <UsageExport />
      </div>
      <DayUsageCard />
      <div className="grid gap-6 lg:grid-cols-2">
        <DomainUsageCard />
        <ProxyTypeUsageCard />
      </div>
    </section>
  );
}
