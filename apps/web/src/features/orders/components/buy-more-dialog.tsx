import { Loader2, Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogHeader } from "../../../components/ui/dialog.tsx";
import { FALLBACK_PRICE_PER_GB_USD, useConfig } from "../../../lib/config.ts";
import { formatMoney } from "../../../lib/format.ts";
import type { Network, PaymentMethod } from "../api/order.ts";
import { type PaymentChoice, useStartPurchase } from "../hooks/use-start-purchase.ts";
import { DEFAULT_PURCHASE_GB, gbAmountProblem, MIN_PURCHASE_GB, totalUsd } from "../purchase-amount.ts";
import { AmountField } from "./amount-field.tsx";
import { CryptoNetworkFields } from "./crypto-network-fields.tsx";
import { PaymentMethodChoice } from "./payment-method-choice.tsx";

/** Buy More → Buy More Data (docs/product.md#routes-and-layout): GB amount, total before paying, USDC network or card. */
export function BuyMoreDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      testId="buy-more-dialog"
      trigger={
        <Button>
          <Plus aria-hidden="true" className="size-4" />
          Buy More
        </Button>
      }
    >
      {/* Mounted only while open, so every opening starts from the defaults. */}
      <BuyMoreForm />
    </Dialog>
  );
}

function BuyMoreForm() {
  const config = useConfig();
  const pricePerGb = config.data?.price_per_gb_usd ?? FALLBACK_PRICE_PER_GB_USD;
  const [gbInput, setGbInput] = useState(String(DEFAULT_PURCHASE_GB));
  const [method, setMethod] = useState<PaymentMethod>("crypto");
  const [network, setNetwork] = useState<Network | null>(null);
  const [acknowledged, setAcknowledged] = useState(false);
  const purchase = useStartPurchase();

  const problem = gbAmountProblem(gbInput, pricePerGb);
  const gb = problem ? 0 : Number(gbInput);
  const total = totalUsd(gb, pricePerGb);
  const choice: PaymentChoice | null =
    method === "card" ? { method: "card" } : network && acknowledged ? { method: "crypto", network } : null;
  const canPay = !problem && choice !== null && !purchase.pending;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (problem || choice === null || purchase.pending) return;
    void purchase.start({ amountUsd: total, choice });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <DialogHeader
        title="Buy More Data"
        description={`${formatMoney(pricePerGb)} per GB. Data never expires.`}
      />

      <AmountField
        label="Amount (GB)"
        value={gbInput}
        onChange={setGbInput}
        min={MIN_PURCHASE_GB}
        step={1}
        inputMode="numeric"
        problem={problem}
      />

      <PaymentMethodChoice value={method} onChange={setMethod} />
      {method === "crypto" ? (
        <CryptoNetworkFields
          network={network}
          onNetworkChange={setNetwork}
          acknowledged={acknowledged}
          onAcknowledgedChange={setAcknowledged}
        />
      ) : null}

      <div className="flex items-center justify-between rounded-lg bg-slate-50 px-4 py-3 text-sm">
        <span className="text-slate-600">Total</span>
        <span className="text-lg font-semibold text-slate-900" data-testid="buy-more-total">
          {problem ? "—" : formatMoney(total)}
        </span>
      </div>

      {purchase.error ? (
        <p role="alert" className="text-sm text-red-600">
          {purchase.error}
        </p>
      ) : null}

      <Button type="submit" className="w-full" disabled={!canPay}>
        {purchase.pending ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
        {purchase.pending
          ? "Creating order…"
          : problem
            ? "Pay"
            : `Pay ${formatMoney(total)} ${method === "card" ? "by card" : "with USDC"}`}
      </Button>
    </form>
  );
}
