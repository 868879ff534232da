import { useQuery } from "@tanstack/react-query";
import { CopyButton } from "../../../components/ui/copy-button.tsx";
import { apiTokenQueryOptions } from "../api/api-token.ts";
import { maskToken } from "./api-access-card.tsx";

/** The personal API token, masked like on Connect; Copy copies the whole token. Regenerating
 * stays on the Connect page, next to the integrations it affects. */
export function ProfileApiToken() {
  const token = useQuery(apiTokenQueryOptions());
  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-slate-500">API token</p>
      {token.isPending ? <p className="text-sm text-slate-500">Loading API token…</p> : null}
      {token.isError ? (
        <p role="alert" className="text-sm text-red-600">
          Failed to load the API token: {token.error.message}
        </p>
      ) : null}
      {token.isSuccess ? (
        <div className="flex flex-wrap items-center gap-2">
          <input
            readOnly
            aria-label="API token"
            value={maskToken(token.data)}
            className="min-w-0 flex-1 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900"
            data-testid="profile-api-token"
          />
          <CopyButton value={token.data} label="Copy API token" />
        </div>
      ) : null}
    </div>
  );
}
