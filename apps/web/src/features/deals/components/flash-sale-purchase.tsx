import { type Deal, FLASH_SALE_UNIT_GB, flashSaleTotalUsd } from "@bytetoll/contracts";
import { Minus, Plus } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { LinkButton } from "../../../components/ui/link-button.tsx";
import { formatMoney } from "../../../lib/format.ts";
import { nextQuantity } from "../quantity.ts";

export const checkoutPath = (dealId: string, usd: number) =>
  `/checkout?di=${encodeURIComponent(dealId)}&usd=${usd}`;

/** A live flash sale: how many 1,000 GB units (whole, at least 1) and a Buy link to checkout. */
export function FlashSalePurchase({ deal }: { deal: Deal }) {
  const [quantity, setQuantity] = useState(1);
  const inputId = useId();
  const total = flashSaleTotalUsd(quantity, deal.deal_price);
  return (
    <div className="mt-auto space-y-3">
      <div className="flex items-end gap-3">
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
              onClick={() => setQuantity((q) => Math.max(1, q - 1))}
            >
              <Minus aria-hidden="true" className="size-4" />
            </Button>
            <input
              id={inputId}
              inputMode="numeric"
              value={quantity === 0 ? "" : String(quantity)}
              onChange={(event) => setQuantity((q) => nextQuantity(event.target.value, q))}
              className="w-16 rounded-lg border border-slate-300 px-2 py-2 text-center text-sm tabular-nums focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none"
            />
            <Button
              variant="secondary"
              className="px-2 py-2"
              aria-label="More"
              onClick={() => setQuantity((q) => q + 1)}
            >
              <Plus aria-hidden="true" className="size-4" />
            </Button>
          </div>
        </div>
        <p className="pb-2 text-sm text-slate-600">
          Total <span className="font-semibold text-slate-900">{formatMoney(total)}</span>
        </p>
      </div>
      <LinkButton to={checkoutPath(deal.id, total)} disabled={quantity === 0} className="w-full">
        Buy
      </LinkButton>
    </div>
  );
}
