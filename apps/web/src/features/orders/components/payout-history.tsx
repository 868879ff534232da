import { type Payout, payoutExplorerUrl } from "@bytetoll/contracts";
import { formatDateTime, formatMoney, shortenWallet } from "../../../lib/format.ts";
import { usePayouts } from "../api/get-payouts.ts";

const KIND_LABEL: Record<Payout["kind"], string> = { withdrawal: "Payout", refund: "Refund" };
const STATUS_LABEL: Record<Payout["status"], string> = { pending: "Pending", sent: "Sent", failed: "Failed" };

/** Withdrawn and refunded group-buy deposits, each its own kind; shown once there is one. */
export function PayoutHistory() {
  const payouts = usePayouts();
  if (!payouts.data || payouts.data.length === 0) return null;
  return (
    <section
      aria-labelledby="payouts-title"
      className="rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <h2
        id="payouts-title"
        className="border-b border-slate-200 px-4 py-4 text-base font-semibold text-slate-900 sm:px-6"
      >
        Payouts and Refunds
      </h2>
      <ul className="divide-y divide-slate-100 text-sm">
        {payouts.data.map((payout) => (
          <li
            key={payout.id}
            className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6"
            data-testid="payout-row"
          >
            <span className="font-medium text-slate-900">{KIND_LABEL[payout.kind]}</span>
            <span className="text-slate-500">{formatDateTime(payout.created_at)}</span>
            <span className="text-slate-900">{formatMoney(payout.amount_usd)}</span>
            <span className="font-mono text-xs text-slate-500" title={payout.wallet_address}>
              {shortenWallet(payout.wallet_address)}
            </span>
            <span className="text-slate-700">{STATUS_LABEL[payout.status]}</span>
            {payout.tx_hash ? <PayoutHash hash={payout.tx_hash} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The sent payout's transaction, linked to its explorer page where the hash names one. */
function PayoutHash({ hash }: { hash: string }) {
  const url = payoutExplorerUrl(hash);
  const text = <span className="font-mono text-xs">{shortenWallet(hash)}</span>;
  return url ? (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      title={hash}
      aria-label={`Transaction ${hash} on the explorer`}
      className="rounded text-indigo-700 underline hover:text-indigo-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
    >
      {text}
    </a>
  ) : (
    <span title={hash}>{text}</span>
  );
}
