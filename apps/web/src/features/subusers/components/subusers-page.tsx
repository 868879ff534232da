import { MAX_SUBUSERS } from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { subusersQueryOptions } from "../api/subusers.ts";
import { useLiveSubusers } from "../hooks/use-live-subusers.ts";
import { NewSubuserDialog } from "./new-subuser-dialog.tsx";
import { SubuserItem } from "./subuser-item.tsx";

const CARD = "rounded-2xl border border-slate-200 bg-white p-5 shadow-sm";

/** /subusers (docs/product.md#subusers): the account's sub-users and a dialog to add one, kept live
 * by the signed-in owner's balance changes (`userId`; null: not known yet). */
export function SubusersPage({ userId }: { userId: string | null }) {
  const subusers = useQuery(subusersQueryOptions());
  useLiveSubusers(userId);
  const count = subusers.data?.length ?? 0;
  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-5xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="screen-title" className="text-2xl font-semibold tracking-tight text-slate-900">
            Sub-users
          </h1>
          <p className="mt-1 text-sm text-slate-500">
            Proxy credentials for a team member or a job, each with its own data limit. Their traffic uses
            your balance; at its limit a sub-user is refused with 402 subuser_limit_reached.
          </p>
        </div>
        <NewSubuserDialog disabled={subusers.isPending || count >= MAX_SUBUSERS} />
      </div>
      <div className={CARD}>
        {subusers.isPending ? <p className="text-sm text-slate-500">Loading sub-users…</p> : null}
        {subusers.isError ? (
          <p role="alert" className="text-sm text-red-600">
            Failed to load sub-users: {subusers.error.message}
          </p>
        ) : null}
        {subusers.data?.length === 0 ? <p className="text-sm text-slate-500">No sub-users yet.</p> : null}
        <ul className="space-y-3">
          {subusers.data?.map((subuser) => (
            <SubuserItem key={subuser.id} subuser={subuser} />
          ))}
        </ul>
      </div>
    </section>
  );
}
