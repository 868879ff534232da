import { SCOPES, type Scope, type ScopedToken } from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { CopyButton } from "../../../components/ui/copy-button.tsx";
import { apiTokensQueryOptions, useCreateApiToken, useDeleteApiToken } from "../api/api-tokens.ts";

const FIELD = "rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900";
const when = (value: string | null, none: string) => (value ? new Date(value).toLocaleString() : none);

function TokenOnce({ token, onDone }: { token: string; onDone: () => void }) {
  return (
    <div
      role="status"
      className="space-y-2 rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900"
    >
      <p className="font-semibold">Token created. Copy it now: it is not shown again.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          data-testid="new-api-token"
          className="min-w-0 flex-1 break-all rounded-lg bg-white px-3 py-2 font-mono text-xs text-slate-900"
        >
          {token}
        </code>
        <CopyButton value={token} label="Copy API token" />
      </div>
      <Button variant="secondary" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

function NewTokenForm() {
  const create = useCreateApiToken();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["usage:read"]);
  const [expiry, setExpiry] = useState("");
  const [shown, setShown] = useState<string | null>(null);
  const id = useId();
  if (shown) return <TokenOnce token={shown} onDone={() => setShown(null)} />;
  const toggle = (scope: Scope) =>
    setScopes((now) => (now.includes(scope) ? now.filter((s) => s !== scope) : [...now, scope]));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expires_at = expiry ? new Date(`${expiry}T23:59:59`).toISOString() : null;
    create.mutate(
      { name, scopes, expires_at },
      {
        onSuccess: (created) => {
          setShown(created.token);
          setName("");
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="space-y-3">
      <div className="flex flex-wrap gap-3">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={`${id}-name`} className="text-sm font-medium text-slate-700">
            Token name
          </label>
          <input
            id={`${id}-name`}
            required
            maxLength={64}
            value={name}
            onChange={(e) => setName(e.target.value)}
            className={FIELD}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-expiry`} className="text-sm font-medium text-slate-700">
            Expires (optional)
          </label>
          <input
            id={`${id}-expiry`}
            type="date"
            value={expiry}
            onChange={(e) => setExpiry(e.target.value)}
            className={FIELD}
          />
        </div>
      </div>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-2">
        <legend className="mb-1 text-sm font-medium text-slate-700">Scopes</legend>
        {SCOPES.map((scope) => (
          <label key={scope} className="flex items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} />
            <code className="font-mono text-xs">{scope}</code>
          </label>
        ))}
      </fieldset>
      <Button type="submit" disabled={create.isPending || scopes.length === 0}>
        Create token
      </Button>
      {create.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {create.error.message}
        </p>
      ) : null}
    </form>
  );
}

function TokenRow({ token }: { token: ScopedToken }) {
  const remove = useDeleteApiToken();
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 p-3 text-sm">
      <div className="min-w-0 flex-1">
        <p className="font-medium text-slate-900">{token.name}</p>
        <p className="text-slate-600">{token.scopes.join(", ")}</p>
        <p className="text-slate-600">
          Last used: {when(token.last_used_at, "never")} · Expires: {when(token.expires_at, "never")}
        </p>
      </div>
      <Button variant="secondary" onClick={() => remove.mutate(token.id)} disabled={remove.isPending}>
        Delete {token.name}
      </Button>
    </li>
  );
}

/** Scoped API tokens (docs/product.md#api-tokens): create with scopes and an optional expiry, list, delete. */
export function ApiTokensCard() {
  const tokens = useQuery(apiTokensQueryOptions());
  return (
    <div className="space-y-4">
      <NewTokenForm />
      {tokens.isError ? (
        <p role="alert" className="text-sm text-red-700">
          Failed to load tokens: {tokens.error.message}
        </p>
      ) : null}
      {tokens.data?.length === 0 ? <p className="text-sm text-slate-600">No scoped tokens yet.</p> : null}
      <ul className="space-y-2" aria-label="API tokens">
        {tokens.data?.map((token) => (
          <TokenRow key={token.id} token={token} />
        ))}
      </ul>
    </div>
  );
}
