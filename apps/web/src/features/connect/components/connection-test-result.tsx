import type { ConnectionTestData } from "@bytetoll/contracts";
import { CheckCircle2, XCircle } from "lucide-react";
import { useState } from "react";

export const PROXY_TEST_ERROR_TITLE = "We couldn't connect through this proxy.";

/** docs/product.md#test-connection with a toggle for the raw response. */
export function ConnectionTestSuccess({ message, data }: { message: string; data: ConnectionTestData }) {
  const [showRaw, setShowRaw] = useState(false);
  return (
    <div
      role="status"
      className="rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex items-center gap-2 font-medium">
          <CheckCircle2 aria-hidden="true" className="size-4 text-emerald-600" />
          {message} Your IP: {data.ip}
        </p>
        <button
          type="button"
          onClick={() => setShowRaw((shown) => !shown)}
          aria-expanded={showRaw}
          className="text-xs font-semibold text-emerald-800 underline underline-offset-2"
        >
          {showRaw ? "Hide raw response" : "Show raw response"}
        </button>
      </div>
      {showRaw ? (
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
          <dt className="text-emerald-700">Organization</dt>
          <dd>{data.asn.org_name || "—"}</dd>
          <dt className="text-emerald-700">Country</dt>
          <dd>{data.country || "—"}</dd>
          <dt className="text-emerald-700">City</dt>
          <dd>{data.geo.city || "—"}</dd>
          <dt className="text-emerald-700">Region</dt>
          <dd>{data.geo.region_name || "—"}</dd>
        </dl>
      ) : null}
    </div>
  );
}

/** docs/product.md#test-connection: the fixed title, then the server's message or "Proxy test failed". */
export function ConnectionTestError({ message }: { message: string }) {
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="flex items-center gap-2 font-medium">
        <XCircle aria-hidden="true" className="size-4 text-red-600" />
        {PROXY_TEST_ERROR_TITLE}
      </p>
      <p className="mt-1">{message}</p>
    </div>
  );
}
