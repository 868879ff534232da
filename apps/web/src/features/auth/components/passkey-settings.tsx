import type { Passkey } from "@bytetoll/contracts";
import { type FormEvent, useId, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { addPasskey, removePasskey, useFactorChange } from "../api/change-factors.ts";
import { inputClass } from "./code-field.tsx";
import { RecoveryCodesNotice } from "./recovery-codes-notice.tsx";

/** Passkeys: each named, added through the browser's own dialog, removed with a click. */
export function PasskeySettings({ passkeys }: { passkeys: Passkey[] }) {
  const nameId = useId();
  const [name, setName] = useState("");
  const [codes, setCodes] = useState<string[] | null>(null);
  const add = useFactorChange(addPasskey);
  const remove = useFactorChange(removePasskey);
  const error = add.error ?? remove.error;

  function submit(event: FormEvent) {
    event.preventDefault();
    add.mutate(name.trim(), {
      onSuccess: (saved) => {
        setName("");
        if (saved.recovery_codes.length > 0) setCodes(saved.recovery_codes);
      },
    });
  }

  return (
    <section className="space-y-3" aria-labelledby="passkeys-heading" data-testid="passkey-settings">
      <h3 id="passkeys-heading" className="text-sm font-medium text-slate-700">
        Passkeys
      </h3>
      {codes && <RecoveryCodesNotice codes={codes} />}
      {passkeys.length > 0 && (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="flex items-center justify-between gap-2 px-3 py-2">
              <span className="min-w-0 truncate text-slate-900">{passkey.name}</span>
              <Button
                variant="ghost"
                className="text-red-700"
                aria-label={`Remove passkey ${passkey.name}`}
                onClick={() => remove.mutate(passkey.id)}
                disabled={remove.isPending}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} className="space-y-1">
        <label htmlFor={nameId} className="block text-sm text-slate-600">
          Name for a new passkey
        </label>
        <div className="flex flex-wrap gap-2">
          <input
            id={nameId}
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="Work laptop"
            maxLength={60}
            className={inputClass}
            data-testid="passkey-name"
          />
          <Button type="submit" variant="secondary" disabled={!name.trim() || add.isPending}>
            Add a passkey
          </Button>
        </div>
      </form>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error.message}
        </p>
      )}
    </section>
  );
}
