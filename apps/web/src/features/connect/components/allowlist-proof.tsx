import type { AllowlistPending } from "@bytetoll/contracts";
import { Button } from "../../../components/ui/button.tsx";
import { CopyButton } from "../../../components/ui/copy-button.tsx";

/** An entry waiting for its proof (docs/product.md#ip-allowlist): the link to fetch from that
 * address, or, once the link has expired, a way to get a new one. */
export function AllowlistProof({
  pending,
  renewing,
  onRenew,
}: {
  pending: AllowlistPending;
  renewing: boolean;
  onRenew: () => void;
}) {
  if (!pending.proof_url) {
    return (
      <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
        <span>The proof link has expired.</span>
        <Button variant="secondary" className="py-1 text-xs" disabled={renewing} onClick={onRenew}>
          New link for {pending.ip}
        </Button>
      </div>
    );
  }
  return (
    <div className="mt-2 space-y-1 text-xs text-slate-600">
      <p>
        Takes effect once this link is opened from {pending.ip} (for example{" "}
        <code className="font-mono">curl</code> on that machine) before{" "}
        {pending.expires_at ? new Date(pending.expires_at).toLocaleTimeString() : "it expires"}. It works
        once.
      </p>
      <div className="flex items-center gap-2">
        <input
          readOnly
          aria-label={`Proof link for ${pending.ip}`}
          value={pending.proof_url}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 rounded border border-slate-200 bg-white px-2 py-1 font-mono text-xs text-slate-900"
        />
        <CopyButton value={pending.proof_url} label={`Copy the proof link for ${pending.ip}`} />
      </div>
    </div>
  );
}
