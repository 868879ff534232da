import { CreditCard, Wallet } from "lucide-react";
import { useId } from "react";
import { classNames } from "../../../lib/class-names.ts";
import { useConfig } from "../../../lib/config.ts";
import type { PaymentMethod } from "../api/order.ts";
import { paymentProviderName } from "../payment-provider.ts";

const OPTIONS: Array<{ value: PaymentMethod; label: string; Icon: typeof Wallet }> = [
  { value: "crypto", label: "USDC", Icon: Wallet },
  { value: "card", label: "Card", Icon: CreditCard },
];

/** USDC or card, as a radio group so arrow keys move between the two. */
export function PaymentMethodChoice({
  value,
  onChange,
}: {
  value: PaymentMethod;
  onChange: (method: PaymentMethod) => void;
}) {
  // Unique per form, so two choices on one page do not share a radio group.
  const name = useId();
  const config = useConfig();
  const providers = config.data
    ? { crypto: config.data.crypto_provider, card: config.data.card_provider }
    : { crypto: null, card: null };
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Pay with</legend>
      <div className="mt-1.5 grid grid-cols-2 gap-3">
        {OPTIONS.map(({ value: option, label, Icon }) => {
          const provider = providers[option];
          return (
            <label
              key={option}
              className={classNames(
                "flex cursor-pointer flex-col gap-1 rounded-lg border p-3 text-sm focus-within:ring-2 focus-within:ring-indigo-500",
                value === option
                  ? "border-indigo-500 bg-indigo-50"
                  : "border-slate-300 bg-white hover:bg-slate-50",
              )}
            >
              <span className="flex items-center gap-2 font-semibold text-slate-900">
                <input
                  type="radio"
                  name={name}
                  value={option}
                  checked={value === option}
                  onChange={() => onChange(option)}
                  className="sr-only"
                />
                <Icon aria-hidden="true" className="size-4" />
                {label}
              </span>
              {provider ? (
                // slate-600: slate-500 on the selected tile's indigo-50 is 4.26:1, under AA's 4.5:1.
                <span className="text-xs text-slate-600">Powered by {paymentProviderName({ provider })}</span>
              ) : null}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
