import { DEFAULT_DEPOSIT_USD, type Deal, MIN_DEPOSIT_USD } from "@bytetoll/contracts";
import { useId, useState } from "react";
import { LinkButton } from "../../../components/ui/link-button.tsx";
import { formatGb, formatMoney } from "../../../lib/format.ts";
import { useDealDeposits } from "../api/get-deal-deposits.ts";
import { depositProblem } from "../quantity.ts";
import { checkoutPath } from "./flash-sale-purchase.tsx";
import { WithdrawDialog } from "./withdraw-dialog.tsx";

interface GroupBuyDepositProps {
  deal: Deal;
  signedIn: boolean;
  refundAddress: string | null;
}

/** A group buy: a deposit (whole USD) while it is live, the user's deposit (once the deal is
 * activated: what it bought), and withdrawing what is still held or owed back. */
export function GroupBuyDeposit({ deal, signedIn, refundAddress }: GroupBuyDepositProps) {
  const deposits = useDealDeposits(deal.id, signedIn);
  const deposit = deposits.data?.total_deposit ?? 0;
  const credited = deposits.data?.credited_deposit ?? 0;
  return (
    <div className="mt-auto space-y-3">
      {deal.status === "live" ? <DepositForm dealId={deal.id} /> : null}
      {signedIn ? (
        <div className="flex items-center justify-between gap-3 text-sm">
          <span className="text-slate-600">
            Your deposit{" "}
            <span className="font-semibold text-slate-900" data-testid="your-deposit">
              {formatMoney(deposit + credited)}
            </span>
            {credited > 0 ? (
              <span className="block text-xs text-slate-500" data-testid="deposit-bought">
                Bought {formatGb(credited / deal.deal_price)} at {formatMoney(deal.deal_price)}/GB
              </span>
            ) : null}
          </span>
          {/* An activated group buy's deposits bought data; what it still owes (a payout that
              failed) is withdrawn like any other deposit. */}
          {deal.status !== "activated" || deposit > 0 ? (
            <WithdrawDialog dealId={deal.id} deposit={deposit} refundAddress={refundAddress} />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function DepositForm({ dealId }: { dealId: string }) {
  const [amount, setAmount] = useState(String(DEFAULT_DEPOSIT_USD));
  const inputId = useId();
  const problemId = useId();
  const problem = depositProblem(amount);
  return (
    <div className="space-y-1.5">
      <label htmlFor={inputId} className="block text-xs font-medium text-slate-700">
        Deposit (USD)
      </label>
      <div className="flex gap-2">
        <input
          id={inputId}
          type="number"
          inputMode="numeric"
          min={MIN_DEPOSIT_USD}
          step={1}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          aria-invalid={problem !== null}
          aria-describedby={problem ? problemId : undefined}
          className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none"
        />
        <LinkButton to={checkoutPath(dealId, Number(amount))} disabled={problem !== null}>
          Continue
        </LinkButton>
      </div>
      {problem ? (
        <p id={problemId} className="text-xs text-red-600">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
