import { DEFAULT_EXPORT_DAYS, type UsagePeriod } from "@bytetoll/contracts";
import { useMutation } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useState } from "react";
import { downloadUsageExport } from "../api/download-usage-export.ts";
import { PeriodSelect } from "./period-select.tsx";

/**
 * The Export link: a CSV of every UTC day × domain × proxy type × sub-user with exact bytes and
 * requests, so a customer can reconcile our numbers with theirs; with a sub-user chosen on the
 * page, only that sub-user's rows (or the main credentials'). A button, not an <a href>, because
 * the download needs the bearer token (decision 005).
 */
export function UsageExport({ subuser }: { subuser?: string }) {
  const [days, setDays] = useState<UsagePeriod>(DEFAULT_EXPORT_DAYS);
  const download = useMutation({ mutationFn: downloadUsageExport });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <PeriodSelect value={days} onChange={setDays} label="Export period" showLabel />
      <button
        type="button"
        onClick={() => download.mutate({ days, subuser })}
        disabled={download.isPending}
        className="inline-flex items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm font-semibold text-indigo-600 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-50"
      >
        <Download aria-hidden="true" className="size-4" />
        {download.isPending ? "Exporting…" : "Export CSV"}
      </button>
      {download.isError ? (
        <p role="alert" className="w-full text-sm text-red-600 sm:w-auto">
          {download.error.message}
        </p>
      ) : null}
    </div>
  );
}
