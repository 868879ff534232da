import { MEMBER_ROLES, type MemberRole, type TeamMember } from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { membersQueryOptions, useChangeRole, useInviteMember, useRemoveMember } from "../api/team.ts";

const FIELD = "rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900";

function InviteForm() {
  const invite = useInviteMember();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<MemberRole>("viewer");
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email, role }, { onSuccess: () => setEmail("") });
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <label htmlFor={`${id}-email`} className="text-sm font-medium text-slate-700">
          E-mail
        </label>
        <input
          id={`${id}-email`}
          type="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className={FIELD}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-role`} className="text-sm font-medium text-slate-700">
          Role
        </label>
        <select
          id={`${id}-role`}
          value={role}
          onChange={(e) => setRole(e.target.value as MemberRole)}
          className={FIELD}
        >
          {MEMBER_ROLES.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </div>
      <Button type="submit" disabled={invite.isPending}>
        Invite
      </Button>
      {invite.isError ? (
        <p role="alert" className="w-full text-sm text-red-700">
          {invite.error.message}
        </p>
      ) : null}
      {invite.isSuccess ? (
        <p role="status" className="w-full text-sm text-emerald-800">
          Invitation sent.
        </p>
      ) : null}
    </form>
  );
}

function MemberRow({ member }: { member: TeamMember }) {
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const [confirming, setConfirming] = useState(false);
  const error = changeRole.error ?? remove.error;
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 p-3">
      <span className="min-w-0 flex-1 break-all text-sm text-slate-900">{member.email}</span>
      {member.role === "owner" ? (
        <span className="text-sm text-slate-600">owner</span>
      ) : (
        <>
          <label className="sr-only" htmlFor={`role-${member.id}`}>
            Role of {member.email}
          </label>
          <select
            id={`role-${member.id}`}
            value={member.role}
            disabled={changeRole.isPending}
            onChange={(e) => changeRole.mutate({ id: member.id, role: e.target.value as MemberRole })}
            className={FIELD}
          >
            {MEMBER_ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
          {confirming ? (
            <>
              <Button onClick={() => remove.mutate(member.id)} disabled={remove.isPending}>
                Remove {member.email}
              </Button>
              <Button variant="secondary" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
            </>
          ) : (
            <Button variant="secondary" onClick={() => setConfirming(true)}>
              Remove…
            </Button>
          )}
        </>
      )}
      {error ? (
        <p role="alert" className="w-full text-sm text-red-700">
          {error.message}
        </p>
      ) : null}
    </li>
  );
}

/** The owner and members, with an invitation form. */
export function MembersCard() {
  const members = useQuery(membersQueryOptions());
  return (
    <div className="space-y-4">
      <InviteForm />
      {members.isError ? (
        <p role="alert" className="text-sm text-red-700">
          Failed to load members: {members.error.message}
        </p>
      ) : null}
      <ul className="space-y-2" aria-label="Members">
        {members.data?.map((member) => (
          <MemberRow key={member.id} member={member} />
        ))}
      </ul>
    </div>
  );
}
