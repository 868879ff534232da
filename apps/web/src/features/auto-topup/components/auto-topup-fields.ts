import {
  AUTO_TOPUP_MONTHLY_CAP_MAX_USD,
  AUTO_TOPUP_THRESHOLD_MAX_GB,
  AUTO_TOPUP_THRESHOLD_MIN_GB,
  type AutoTopupSettings,
  type AutoTopupUpdate,
  MAX_ORDER_USD,
} from "@bytetoll/contracts";
import { formatMoney } from "../../../lib/format.ts";

/** The form's fields as typed. */
export interface AutoTopupDraft {
  enabled: boolean;
  threshold: string;
  amount: string;
  cap: string;
}

export const draftOf = (settings: AutoTopupSettings): AutoTopupDraft => ({
  enabled: settings.enabled,
  threshold: String(settings.threshold_gb),
  amount: String(settings.amount_usd),
  cap: String(settings.monthly_cap_usd),
});

export type DraftProblems = Partial<Record<"threshold" | "amount" | "cap", string>>;

const number = (text: string) => (text.trim() === "" ? Number.NaN : Number(text.trim()));
const twoDecimals = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

/** The same rules the server applies, in the page's words: a problem per field, or none. */
export function draftProblems(draft: AutoTopupDraft, minimumUsd: number): DraftProblems {
  const problems: DraftProblems = {};
  const threshold = number(draft.threshold);
  if (!(threshold >= AUTO_TOPUP_THRESHOLD_MIN_GB && threshold <= AUTO_TOPUP_THRESHOLD_MAX_GB))
    problems.threshold = `Enter a number of GB from ${AUTO_TOPUP_THRESHOLD_MIN_GB} to ${AUTO_TOPUP_THRESHOLD_MAX_GB.toLocaleString("en-US")}.`;
  const amount = number(draft.amount);
  if (!(amount >= minimumUsd && amount <= MAX_ORDER_USD) || !twoDecimals(amount))
    problems.amount = `Enter an amount from ${formatMoney(minimumUsd)} to ${formatMoney(MAX_ORDER_USD)}, at most 2 decimals.`;
  const cap = number(draft.cap);
  if (!(cap > 0 && cap <= AUTO_TOPUP_MONTHLY_CAP_MAX_USD) || !twoDecimals(cap))
    problems.cap = `Enter an amount up to ${formatMoney(AUTO_TOPUP_MONTHLY_CAP_MAX_USD)}, at most 2 decimals.`;
  else if (!problems.amount && cap < amount)
    problems.cap = "The monthly cap must be at least the top-up amount.";
  return problems;
}

export const updateOf = (draft: AutoTopupDraft): AutoTopupUpdate => ({
  enabled: draft.enabled,
  threshold_gb: Number(draft.threshold),
  amount_usd: Number(draft.amount),
  monthly_cap_usd: Number(draft.cap),
});

/** "Visa •••• 4242". */
export function cardName(card: { brand: string; last4: string }): string {
  const brand = card.brand.length > 0 ? card.brand[0]?.toUpperCase() + card.brand.slice(1) : "Card";
  return `${brand} •••• ${card.last4}`;
}
