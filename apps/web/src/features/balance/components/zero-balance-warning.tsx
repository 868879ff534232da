import { useAccountStatus } from "../api/get-account-status.ts";

export const ZERO_BALANCE_MESSAGE =
  "Your account has 0 GB of data. Buy more data to continue using your proxy.";

/** docs/product.md#routes-and-layout/§8: the warning a signed-in user sees at 0 GB. */
export function ZeroBalanceWarning() {
  const status = useAccountStatus();
  if (!status.data || status.data.balance_gb > 0) return null;
  return (
    <div
      role="alert"
      className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-800"
    >
      {ZERO_BALANCE_MESSAGE}
    </div>
  );
}
