import { autoTopupUpdateSchema } from "@bytetoll/contracts";
import { dataOf, type HttpOptions } from "./http.ts";
import type { AutoTopupSettings, AutoTopupUpdate } from "./types.ts";
import { validate } from "./validate.ts";

/** Auto top-up: when your balance falls below `threshold_gb`, your saved card is charged
 * `amount_usd` (once per fall, at most `monthly_cap_usd` per calendar month, UTC). */
export function autoTopupApi(http: HttpOptions) {
  const data = dataOf(http);
  return {
    /** `{enabled, threshold_gb, amount_usd, monthly_cap_usd, card: null | {brand, last4}, …}`. */
    get: () => data<AutoTopupSettings>({ method: "GET", path: "/settings/auto-topup" }),
    /** Every field; turning it on without a saved card is refused (409 "Add a card first"). */
    async set(settings: AutoTopupUpdate): Promise<AutoTopupSettings> {
      return data<AutoTopupSettings>({
        method: "PUT",
        path: "/settings/auto-topup",
        body: validate(autoTopupUpdateSchema, settings),
      });
    },
    /** The card page that saves a card (Stripe Checkout in setup mode): open `redirect_url` in
     * the customer's browser. */
    addCard: () => data<{ redirect_url: string }>({ method: "POST", path: "/settings/auto-topup/card" }),
    /** Removes the saved card, which turns auto top-up off. */
    removeCard: () => data<AutoTopupSettings>({ method: "DELETE", path: "/settings/auto-topup/card" }),
  };
}
