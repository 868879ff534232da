import { USAGE_OWN_CREDENTIALS_FILTER } from "@bytetoll/contracts";
import { useId } from "react";
import { useUsage } from "../api/get-usage.ts";

/** Which credentials' usage the page shows: all, the main credentials, or one sub-user. Offered
 * only once the account has sub-users; the choices come from the usage by sub-user itself. */
export function SubuserFilter({ value, onChange }: { value?: string; onChange: (value?: string) => void }) {
  const rows = useUsage("subuser", 90).data ?? [];
  const id = useId();
  if (rows.length <= 1) return null;
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        Sub-user
      </label>
      <select
        id={id}
        className="rounded-lg border border-slate-300 px-3 py-2 text-sm"
        value={value ?? ""}
        onChange={(event) => onChange(event.target.value === "" ? undefined : event.target.value)}
      >
        <option value="">All credentials</option>
        {rows.map((row) => (
          <option key={row.subuser_id ?? "main"} value={row.subuser_id ?? USAGE_OWN_CREDENTIALS_FILTER}>
            {row.value}
          </option>
        ))}
      </select>
    </div>
  );
}
