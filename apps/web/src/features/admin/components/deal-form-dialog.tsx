import {
  type AdminDeal,
  createDealRequest,
  DEAL_TYPES,
  type DealType,
  dealPriceRefusal,
  FLASH_SALE_UNIT_GB,
  updateDealRequest,
} from "@bytetoll/contracts";
import { useState } from "react";
import { toast } from "sonner";
import { useConfig } from "../../../lib/config.ts";
import { useCreateDeal, useUpdateDeal } from "../api/deal-mutations.ts";
import { ADMIN_TOASTER_ID } from "./admin-toaster.tsx";
import { ConfirmDialog, Field } from "./confirm-dialog.tsx";

interface Draft {
  deal_type: DealType;
  deal_title: string;
  deal_description: string;
  deal_price: string;
  deal_start_time: string;
  deal_end_time: string;
  deal_target_gb: string;
}

/** "2025-03-01T12:00" in the operator's own time zone, as <input type="datetime-local"> wants it. */
function localInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function isoOf(local: string): string {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

function draftOf(deal: AdminDeal | null): Draft {
  const hour = 60 * 60 * 1000;
  const start = new Date(Math.ceil(Date.now() / hour) * hour);
  return deal
    ? {
        deal_type: deal.deal_type,
        deal_title: deal.deal_title,
        deal_description: deal.deal_description,
        deal_price: String(deal.deal_price),
        deal_start_time: localInput(deal.deal_start_time),
        deal_end_time: localInput(deal.deal_end_time),
        deal_target_gb: String(deal.deal_target_gb),
      }
    : {
        deal_type: "group_buy",
        deal_title: "",
        deal_description: "",
        deal_price: "",
        deal_start_time: localInput(start.toISOString()),
        deal_end_time: localInput(new Date(start.getTime() + 7 * 24 * hour).toISOString()),
        deal_target_gb: "",
      };
}

/** Create a deal, or (with `deal`) edit one that has not started; checked by the API's own schema
 * before it is sent. */
export function DealFormDialog({ deal, onClose }: { deal: AdminDeal | null; onClose: () => void }) {
  const create = useCreateDeal();
  const update = useUpdateDeal();
  const mutation = deal ? update : create;
  const [draft, setDraft] = useState(() => draftOf(deal));
  const [invalid, setInvalid] = useState<string | null>(null);
  const listPrice = useConfig().data?.price_per_gb_usd;
  // An edit makes the complaint about the previous values stale: it goes, and Save checks again.
  const set = (name: keyof Draft) => (event: { target: { value: string } }) => {
    setDraft((previous) => ({ ...previous, [name]: event.target.value }));
    setInvalid(null);
    if (mutation.isError) mutation.reset();
  };

  /** The server's price rule (a cent up to the list price), checked before asking it. */
  const priceRefusal = () =>
    listPrice === undefined ? null : dealPriceRefusal(Number(draft.deal_price), listPrice);

  function confirm() {
    const body = {
      deal_title: draft.deal_title,
      deal_description: draft.deal_description,
      deal_price: Number(draft.deal_price),
      deal_start_time: isoOf(draft.deal_start_time),
      deal_end_time: isoOf(draft.deal_end_time),
      deal_target_gb: Number(draft.deal_target_gb),
    };
    const done = (message: string) => {
      toast.success(message, { toasterId: ADMIN_TOASTER_ID });
      onClose();
    };
    const refusal = draft.deal_price.trim() === "" ? null : priceRefusal();
    if (refusal) return setInvalid(refusal);
    if (deal) {
      const parsed = updateDealRequest.safeParse(body);
      if (!parsed.success) return setInvalid(parsed.error.issues[0]?.message ?? "Check the fields.");
      setInvalid(null);
      update.mutate(
        { id: deal.id, body: parsed.data },
        { onSuccess: () => done(`Saved “${body.deal_title}”`) },
      );
    } else {
      const parsed = createDealRequest.safeParse({ ...body, deal_type: draft.deal_type });
      if (!parsed.success) return setInvalid(parsed.error.issues[0]?.message ?? "Check the fields.");
      setInvalid(null);
      create.mutate(parsed.data, { onSuccess: () => done(`Created “${body.deal_title}”`) });
    }
  }

  const kind = draft.deal_type === "flash_sale" ? "flash sale" : "group buy";
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={deal ? `Edit “${deal.deal_title}”` : "New deal"}
      consequence={
        deal
          ? "Changes the deal before it starts; customers see the new terms on the Promotions list."
          : `Publishes a ${kind} on every customer's Promotions list from its start time (at once if that has passed).`
      }
      confirmLabel={deal ? "Save" : "Create deal"}
      pending={mutation.isPending}
      error={invalid ? new Error(invalid) : mutation.error}
      onConfirm={confirm}
      testId="deal-dialog"
    >
      {deal ? null : (
        <Field label="Type">
          {(control) => (
            <select {...control} value={draft.deal_type} onChange={set("deal_type")}>
              {DEAL_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type === "flash_sale" ? "Flash sale" : "Group buy"}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field label="Title">
        {(control) => <input {...control} value={draft.deal_title} onChange={set("deal_title")} />}
      </Field>
      <Field label="Description">
        {(control) => (
          <textarea {...control} rows={2} value={draft.deal_description} onChange={set("deal_description")} />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Price (USD per GB)">
          {(control) => (
            <input {...control} inputMode="decimal" value={draft.deal_price} onChange={set("deal_price")} />
          )}
        </Field>
        <Field
          label="Target (GB)"
          hint={draft.deal_type === "flash_sale" ? `Whole units of ${FLASH_SALE_UNIT_GB} GB.` : undefined}
        >
          {(control) => (
            <input
              {...control}
              inputMode="numeric"
              value={draft.deal_target_gb}
              onChange={set("deal_target_gb")}
            />
          )}
        </Field>
        <Field label="Starts">
          {(control) => (
            <input
              type="datetime-local"
              {...control}
              value={draft.deal_start_time}
              onChange={set("deal_start_time")}
            />
          )}
        </Field>
        <Field label="Ends">
          {(control) => (
            <input
              type="datetime-local"
              {...control}
              value={draft.deal_end_time}
              onChange={set("deal_end_time")}
            />
          )}
        </Field>
      </div>
    </ConfirmDialog>
  );
}
