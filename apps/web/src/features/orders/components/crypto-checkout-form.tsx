import { CreditCard, Loader2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { FALLBACK_PRICE_PER_GB_USD, useConfig } from "../../../lib/config.ts";
import { formatGb, formatMoney } from "../../../lib/format.ts";
import type { Network } from "../api/order.ts";
import { type PaymentChoice, useStartPurchase } from "../hooks/use-start-purchase.ts";
import { paymentProviderName } from "../payment-provider.ts";
import {
  DEFAULT_PURCHASE_GB,
  gbForUsd,
  minimumOrderUsd,
  totalUsd,
  usdAmountProblem,
  usdOutOfBounds,
} from "../purchase-amount.ts";
import { AmountField } from "./amount-field.tsx";
import { CryptoNetworkFields } from "./crypto-network-fields.tsx";

/**
 * /checkout without order_id (docs/product.md#routes-and-layout/§5): pay a USD amount in USDC on a chosen network, or by card.
 * `fixedUsd` (the usd query value) locks the amount; `dealId` buys at a deal's terms. With `orderId`
 * (an order made at sign-in, not yet priced) paying chooses that order's method instead of
 * creating a new order.
 */
export function CryptoCheckoutForm({
  fixedUsd,
  dealId,
  orderId,
  orderGb,
}: {
  fixedUsd: number | null;
  /** The encoded id of a live deal the order is for. */
  dealId: string | null;
  orderId?: string;
  /** The GB an existing order buys (a deal's order buys at the deal's price, not the list price). */
  orderGb?: number;
}) {
  const config = useConfig();
  const pricePerGb = config.data?.price_per_gb_usd ?? FALLBACK_PRICE_PER_GB_USD;
  const [amountInput, setAmountInput] = useState(() =>
    String(fixedUsd ?? totalUsd(DEFAULT_PURCHASE_GB, FALLBACK_PRICE_PER_GB_USD)),
  );
  const [network, setNetwork] = useState<Network | null>(null);
  const [acknowledged, setAcknowledged] = useState(false);
  const purchase = useStartPurchase();

  const forDeal = dealId !== null;
  const minimumUsd = minimumOrderUsd(pricePerGb, forDeal);
  // A usd in the link is checked too: it would otherwise be shown as if it could be paid. An
  // existing order's amount was accepted by the server already.
  const problem =
    fixedUsd === null
      ? usdAmountProblem(amountInput, minimumUsd, forDeal)
      : orderId === undefined
        ? usdOutOfBounds(fixedUsd, minimumUsd, forDeal)
        : null;
  const amountUsd = fixedUsd ?? (problem ? 0 : Number(amountInput));
  const canPayCrypto = !problem && network !== null && acknowledged && !purchase.pending;
  const canPayCard = !problem && !purchase.pending;

  function pay(choice: PaymentChoice) {
    void purchase.start({
      amountUsd,
      choice,
      ...(dealId !== null ? { dealId } : {}),
      ...(orderId !== undefined ? { orderId } : {}),
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (canPayCrypto && network) pay({ method: "crypto", network });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-6" data-testid="crypto-checkout-form">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Checkout</h1>
        <p className="mt-1 text-sm text-slate-500">
          Pay with USDC.
          {config.data
            ? ` Powered by ${paymentProviderName({ provider: config.data.crypto_provider })}.`
            : null}
        </p>
      </div>

      {fixedUsd === null ? (
        <AmountField
          label="Amount (USD)"
          value={amountInput}
          onChange={setAmountInput}
          min={0.01}
          step={0.01}
          inputMode="decimal"
          problem={problem}
        />
      ) : problem ? (
        <p role="alert" className="text-sm text-red-600" data-testid="fixed-amount-problem">
          {problem}
        </p>
      ) : null}

      <dl className="flex items-center justify-between rounded-lg bg-slate-50 px-4 py-3 text-sm">
        <dt className="text-slate-600">Total</dt>
        <dd className="text-right">
          <span className="block text-lg font-semibold text-slate-900" data-testid="checkout-total">
            {problem ? "—" : formatMoney(amountUsd)}
          </span>
          {/* A deal sells at its own price, which this form does not know unless the order says. */}
          {orderGb !== undefined ? (
            <span className="block text-xs text-slate-500">{formatGb(orderGb)} of data</span>
          ) : dealId === null && !problem ? (
            <span className="block text-xs text-slate-500">
              {formatGb(gbForUsd(amountUsd, pricePerGb))} of data
            </span>
          ) : null}
        </dd>
      </dl>

      <CryptoNetworkFields
        network={network}
        onNetworkChange={setNetwork}
        acknowledged={acknowledged}
        onAcknowledgedChange={setAcknowledged}
      />

      {purchase.error ? (
        <p role="alert" className="text-sm text-red-600">
          {purchase.error}
        </p>
      ) : null}

      <div className="space-y-3">
        <Button type="submit" className="w-full" disabled={!canPayCrypto}>
          {purchase.pending ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
          {purchase.pending ? "Creating order…" : "Pay"}
        </Button>
        {/* slate-500, not lighter: the word must keep 4.5:1 against white (WCAG AA). */}
        <div className="flex items-center gap-3 text-xs text-slate-500">
          <span className="h-px flex-1 bg-slate-200" />
          or
          <span className="h-px flex-1 bg-slate-200" />
        </div>
        <Button
          variant="secondary"
          className="w-full"
          disabled={!canPayCard}
          onClick={() => pay({ method: "card" })}
        >
          <CreditCard aria-hidden="true" className="size-4" />
          Pay by card
        </Button>
        {config.data?.card_provider ? (
          <p className="text-center text-xs text-slate-500">
            Card payments are powered by {paymentProviderName({ provider: config.data.card_provider })}.
          </p>
        ) : null}
      </div>
    </form>
  );
}
