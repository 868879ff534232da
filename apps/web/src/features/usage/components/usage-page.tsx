import { useSearchParams } from "react-router";
import { SubuserFilter } from "./subuser-filter.tsx";
import { UsageCard } from "./usage-card.tsx";
import { DAY_USAGE, DOMAIN_USAGE, PROXY_TYPE_USAGE } from "./usage-card-kinds.ts";
import { UsageExport } from "./usage-export.tsx";

export const SUBUSER_PARAM = "subuser";

/** /usage (docs/product.md#routes-and-layout): three cards and the CSV export. Days are UTC days, as the gateway files them. */
export function UsagePage() {
  // The sub-user filter lives in the URL (`?subuser=`), so a reload or a shared link keeps it.
  const [searchParams, setSearchParams] = useSearchParams();
  const subuser = searchParams.get(SUBUSER_PARAM) ?? undefined;
  const setSubuser = (next: string | undefined) => {
    const params = new URLSearchParams(searchParams);
    if (next === undefined) params.delete(SUBUSER_PARAM);
    else params.set(SUBUSER_PARAM, next);
    setSearchParams(params, { replace: true, preventScrollReset: true });
  };
  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-5xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 id="screen-title" className="text-2xl font-semibold tracking-tight text-slate-900">
            Usage
          </h1>
          <p className="mt-1 text-sm text-slate-500">Days are UTC. New traffic shows within seconds.</p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <SubuserFilter value={subuser} onChange={setSubuser} />
          <UsageExport subuser={subuser} />
        </div>
      </div>
      <UsageCard kind={DAY_USAGE} subuser={subuser} />
      <div className="grid gap-6 lg:grid-cols-2">
        <UsageCard kind={DOMAIN_USAGE} subuser={subuser} />
        <UsageCard kind={PROXY_TYPE_USAGE} subuser={subuser} />
      </div>
    </section>
  );
}
