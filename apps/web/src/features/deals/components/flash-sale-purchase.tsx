import {
  type Deal,
  FLASH_SALE_HOLD_MINUTES,
  FLASH_SALE_UNIT_GB,
  flashSaleTotalUsd,
  MAX_UNPAID_FLASH_SALE_ORDERS,
} from "@bytetoll/contracts";
import { Minus, Plus } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { LinkButton } from "../../../components/ui/link-button.tsx";
import { formatMoney } from "../../../lib/format.ts";
import { flashSaleUnitsLeft, nextQuantityText, quantityOf } from "../quantity.ts";

export const checkoutPath = (dealId: string, usd: number) =>
  `/checkout?di=${encodeURIComponent(dealId)}&usd=${usd}`;

/** A live flash sale: how many 1,000 GB units (whole, 1 to what is left) and a Buy link to
 * checkout; "Sold out" and no Buy once nothing is left. */
export function FlashSalePurchase({ deal }: { deal: Deal }) {
  const left = flashSaleUnitsLeft(deal);
  const [text, setText] = useState("1");
  const inputId = useId();
  const hintId = useId();
  if (left === 0) {
    return (
      <p className="mt-auto rounded-lg bg-slate-100 px-3 py-2.5 text-center text-sm font-semibold text-slate-600">
        Sold out
      </p>
    );
  }
  // Stock sold while the page was open lowers the cap; the field follows.
  const quantity = Math.min(quantityOf(text), left);
  const whole = text === "" || /^\d+$/.test(text);
  const total = flashSaleTotalUsd(quantity, deal.deal_price);
  const step = (by: number) => setText(String(Math.min(left, Math.max(1, quantity + by))));
  return (
    <div className="mt-auto space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="space-y-1.5">
          <label htmlFor={inputId} className="block text-xs font-medium text-slate-700">
            Quantity (× {FLASH_SALE_UNIT_GB.toLocaleString("en-US")} GB)
          </label>
          <div className="flex items-center gap-1">
            <Button
              variant="secondary"
              className="px-2 py-2"
              aria-label="Fewer"
              disabled={quantity <= 1}
              onClick={() => step(-1)}
            >
              <Minus aria-hidden="true" className="size-4" />
            </Button>
            <input
              id={inputId}
              inputMode="numeric"
              value={quantity > 0 && whole ? String(quantity) : text}
              aria-describedby={hintId}
              aria-invalid={!whole}
              onChange={(event) => setText((current) => nextQuantityText(event.target.value, current, left))}
              className="w-16 rounded-lg border border-slate-300 px-2 py-2 text-center text-sm tabular-nums focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none"
            />
            <Button
              variant="secondary"
              className="px-2 py-2"
              aria-label="More"
              disabled={quantity >= left}
              onClick={() => step(1)}
            >
              <Plus aria-hidden="true" className="size-4" />
            </Button>
          </div>
        </div>
        <p className="pb-2 text-sm text-slate-600">
          Total <span className="font-semibold text-slate-900">{formatMoney(total)}</span>
        </p>
      </div>
      <p
        id={hintId}
        className={whole ? "text-xs text-slate-500" : "text-xs text-red-600"}
        data-testid="quantity-hint"
      >
        {whole ? `${left.toLocaleString("en-US")} left` : "Whole units only"}
      </p>
      <LinkButton to={checkoutPath(deal.id, total)} disabled={quantity === 0 || !whole} className="w-full">
        Buy
      </LinkButton>
      <p className="text-xs text-slate-500" data-testid="flash-sale-hold">
        Your units are held for {FLASH_SALE_HOLD_MINUTES} minutes while you pay (an ordinary order waits 60),
        at most {MAX_UNPAID_FLASH_SALE_ORDERS} unpaid orders per sale.
      </p>
    </div>
  );
}
