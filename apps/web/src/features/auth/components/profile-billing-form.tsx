import type { BillingDetails } from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { billingDetailsQueryOptions, useSaveBillingDetails } from "../api/billing-details.ts";
import { PROFILE_TOASTER_ID } from "./profile-toaster.tsx";

export const BILLING_DETAILS_SAVED = "Billing details saved";
const FIELDS: Array<{ key: keyof BillingDetails; label: string; max: number; multiline?: boolean }> = [
  { key: "company", label: "Company", max: 200 },
  { key: "address", label: "Billing address", max: 500, multiline: true },
  { key: "country", label: "Country (2 letters)", max: 2 },
  { key: "vat_id", label: "VAT ID", max: 50 },
];
const INPUT =
  "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-900 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none";

function Field({
  field,
  value,
  onChange,
}: {
  field: (typeof FIELDS)[number];
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className={field.multiline ? "sm:col-span-2" : ""}>
      <label htmlFor={id} className="text-sm text-slate-700">
        {field.label}
      </label>
      {field.multiline ? (
        <textarea
          id={id}
          rows={2}
          value={value}
          maxLength={field.max}
          className={INPUT}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <input
          id={id}
          value={value}
          maxLength={field.max}
          className={INPUT}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </div>
  );
}

function Form({ saved }: { saved: BillingDetails }) {
  const [draft, setDraft] = useState<Record<keyof BillingDetails, string>>({
    company: saved.company ?? "",
    address: saved.address ?? "",
    country: saved.country ?? "",
    vat_id: saved.vat_id ?? "",
  });
  const save = useSaveBillingDetails();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(draft, {
      onSuccess: () => toast.success(BILLING_DETAILS_SAVED, { toasterId: PROFILE_TOASTER_ID }),
    });
  }

  return (
    <form onSubmit={submit} className="space-y-2" aria-busy={save.isPending} aria-label="Billing details">
      <p className="text-sm font-medium text-slate-500">Billing details</p>
      <p className="text-xs text-slate-500">Printed on the invoices of your next payments.</p>
      <div className="grid gap-2 sm:grid-cols-2">
        {FIELDS.map((field) => (
          <Field
            key={field.key}
            field={field}
            value={draft[field.key]}
            onChange={(value) => setDraft((current) => ({ ...current, [field.key]: value }))}
          />
        ))}
      </div>
      {save.error ? (
        <p role="alert" className="text-sm text-red-700">
          {save.error.message}
        </p>
      ) : null}
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save billing details"}
      </Button>
    </form>
  );
}

/** docs/product.md#invoices: company, address, country and VAT id for invoices. */
export function ProfileBillingForm() {
  const details = useQuery(billingDetailsQueryOptions());
  if (details.error)
    return (
      <p role="alert" className="text-sm text-red-700">
        Error loading billing details: {details.error.message}
      </p>
    );
  return details.data ? <Form saved={details.data} /> : null;
}
