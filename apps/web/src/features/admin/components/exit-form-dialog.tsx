import { createUpstreamBody, EXIT_POOLS, type Upstream, updateUpstreamBody } from "@bytetoll/contracts";
import { useState } from "react";
import { toast } from "sonner";
import { useCreateExit, useUpdateExit } from "../api/exits.ts";
import { ADMIN_TOASTER_ID } from "./admin-toaster.tsx";
import { ConfirmDialog, Field } from "./confirm-dialog.tsx";

interface Draft {
  name: string;
  pool: (typeof EXIT_POOLS)[number];
  url: string;
  countries: string;
  cost: string;
  weight: string;
  budget: string;
}

const draftOf = (exit: Upstream | null): Draft =>
  exit
    ? {
        name: exit.name,
        pool: exit.pool,
        // The stored password is never shown: an edit keeps it unless a new URL is typed.
        url: "",
        countries: exit.countries.join(", "),
        cost: String(exit.cost_per_gb_usd),
        weight: String(exit.weight),
        budget: exit.monthly_budget_gb === null ? "" : String(exit.monthly_budget_gb),
      }
    : { name: "", pool: "mobile", url: "", countries: "", cost: "", weight: "1", budget: "" };

const numberOr = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));

/** Add an exit, or (with `exit`) change one; checked by the API's own schema before it is sent. */
export function ExitFormDialog({ exit, onClose }: { exit: Upstream | null; onClose: () => void }) {
  const create = useCreateExit();
  const update = useUpdateExit();
  const mutation = exit ? update : create;
  const [draft, setDraft] = useState(() => draftOf(exit));
  const [invalid, setInvalid] = useState<string | null>(null);
  const set = (name: keyof Draft) => (event: { target: { value: string } }) => {
    setDraft((previous) => ({ ...previous, [name]: event.target.value }));
    setInvalid(null);
    if (mutation.isError) mutation.reset();
  };

  function confirm() {
    const body = {
      name: draft.name,
      pool: draft.pool,
      countries: draft.countries
        .split(/[\s,]+/)
        .map((code) => code.trim())
        .filter(Boolean),
      cost_per_gb_usd: numberOr(draft.cost),
      weight: numberOr(draft.weight),
      monthly_budget_gb: draft.budget.trim() === "" ? null : numberOr(draft.budget),
      ...(draft.url.trim() === "" ? {} : { url: draft.url.trim() }),
    };
    const done = (message: string) => {
      toast.success(message, { toasterId: ADMIN_TOASTER_ID });
      onClose();
    };
    const parsed = exit ? updateUpstreamBody.safeParse(body) : createUpstreamBody.safeParse(body);
    if (!parsed.success) return setInvalid(parsed.error.issues[0]?.message ?? "Check the fields.");
    setInvalid(null);
    if (exit)
      update.mutate({ id: exit.id, body: parsed.data }, { onSuccess: () => done(`Saved “${draft.name}”`) });
    else create.mutate(createUpstreamBody.parse(body), { onSuccess: () => done(`Added “${draft.name}”`) });
  }

  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={exit ? `Edit “${exit.name}”` : "Add an exit"}
      consequence={
        exit
          ? "Every gateway takes the change within seconds; tunnels open now go on as they are."
          : "Every gateway starts sending new connections through it within seconds, for its countries."
      }
      confirmLabel={exit ? "Save" : "Add exit"}
      pending={mutation.isPending}
      error={invalid ? new Error(invalid) : mutation.error}
      onConfirm={confirm}
      testId="exit-dialog"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name">
          {(control) => <input {...control} value={draft.name} onChange={set("name")} />}
        </Field>
        <Field label="Pool">
          {(control) => (
            <select {...control} value={draft.pool} onChange={set("pool")}>
              {EXIT_POOLS.map((pool) => (
                <option key={pool} value={pool}>
                  {pool === "mobile" ? "Mobile" : "Datacenter"}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Field
        label="URL"
        hint={
          exit
            ? `Now ${exit.url}. Leave empty to keep it (and its password).`
            : "direct, http://, https:// or socks5://, with user:password@ and {country} {session} templates."
        }
      >
        {(control) => (
          <input {...control} value={draft.url} onChange={set("url")} autoComplete="off" spellCheck={false} />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Countries" hint="Two-letter codes, e.g. de, at. Empty: it names none.">
          {(control) => <input {...control} value={draft.countries} onChange={set("countries")} />}
        </Field>
        <Field label="Cost (USD per GB)">
          {(control) => <input {...control} inputMode="decimal" value={draft.cost} onChange={set("cost")} />}
        </Field>
        <Field label="Weight (1–100)">
          {(control) => (
            <input {...control} inputMode="numeric" value={draft.weight} onChange={set("weight")} />
          )}
        </Field>
        <Field label="Monthly budget (GB)" hint="Empty: no budget.">
          {(control) => (
            <input {...control} inputMode="decimal" value={draft.budget} onChange={set("budget")} />
          )}
        </Field>
      </div>
    </ConfirmDialog>
  );
}
