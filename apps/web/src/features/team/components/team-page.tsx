import { useQuery } from "@tanstack/react-query";
import { activityQueryOptions } from "../api/team.ts";
import { ApiTokensCard } from "./api-tokens-card.tsx";
import { MembersCard } from "./members-card.tsx";

const CARD = "rounded-2xl border border-slate-200 bg-white p-5 shadow-sm";

function ActivityList() {
  const activity = useQuery(activityQueryOptions());
  if (activity.isError)
    return (
      <p role="alert" className="text-sm text-red-700">
        Failed to load activity: {activity.error.message}
      </p>
    );
  if (activity.data?.length === 0) return <p className="text-sm text-slate-600">Nothing yet.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm" aria-label="Activity">
      {activity.data?.map((entry) => (
        <li key={entry.id} className="flex flex-wrap gap-x-3 py-2">
          <span className="text-slate-600">{new Date(entry.created_at).toLocaleString()}</span>
          <span className="break-all font-medium text-slate-900">{entry.actor_email}</span>
          <span className="text-slate-800">
            {entry.action}
            {entry.detail ? `: ${entry.detail}` : ""}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** /team (docs/product.md#team-members): members and roles, API tokens, and what members did. */
export function TeamPage() {
  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 id="screen-title" className="text-2xl font-semibold tracking-tight text-slate-900">
          Team and API tokens
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          Invite people with a role; they sign in with their own e-mail and switch to this account.
        </p>
      </div>
      <div className={CARD}>
        <h2 className="mb-3 text-lg font-semibold text-slate-900">Members</h2>
        <MembersCard />
      </div>
      <div className={CARD}>
        <h2 className="mb-3 text-lg font-semibold text-slate-900">API tokens</h2>
        <ApiTokensCard />
      </div>
      <div className={CARD}>
        <h2 className="mb-3 text-lg font-semibold text-slate-900">Activity</h2>
        <ActivityList />
      </div>
    </section>
  );
}
