import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { accountsQueryOptions, useSwitchAccount } from "../api/accounts.ts";

/** Whose account is open, and a switch to the others the person belongs to (docs/product.md#team-members).
 * Nothing shows for someone who only has their own. */
export function AccountSwitcher() {
  const accounts = useQuery(accountsQueryOptions());
  const switchAccount = useSwitchAccount();
  const id = useId();
  const list = accounts.data ?? [];
  const current = list.find((account) => account.current);
  if (list.length < 2 || !current) return null;
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm">
      <label htmlFor={id} className="sr-only">
        Account
      </label>
      <select
        id={id}
        data-testid="account-switcher"
        className="max-w-[11rem] truncate rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 sm:max-w-xs"
        value={current.id}
        disabled={switchAccount.isPending}
        onChange={(event) => switchAccount.mutate(event.target.value)}
      >
        {list.map((account) => (
          <option key={account.id} value={account.id}>
            {account.role === "owner" ? `${account.email} (yours)` : `${account.email} (${account.role})`}
          </option>
        ))}
      </select>
      {switchAccount.isError ? (
        <span role="alert" className="text-red-700">
          {switchAccount.error.message}
        </span>
      ) : null}
    </div>
  );
}

/** The role of the person on the open account: what the dashboard shows and hides by. */
export function useCurrentRole() {
  const accounts = useQuery(accountsQueryOptions());
  return accounts.data?.find((account) => account.current)?.role ?? null;
}
