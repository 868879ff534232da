import type { AdminCustomerDetail, CustomerAction } from "@bytetoll/contracts";
import { Ban, CircleCheck, Diff, KeyRound, LogOut } from "lucide-react";
import { type ReactNode, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { formatGb } from "../../../lib/format.ts";
import { useCreditCustomer, useCustomerAction } from "../api/customer-actions.ts";
import { ADMIN_TOASTER_ID } from "./admin-toaster.tsx";
import { ConfirmDialog, Field } from "./confirm-dialog.tsx";

type Open = "credit" | CustomerAction | null;

/** The customer page's actions, each behind a dialog that says what it will do. */
export function CustomerActions({ customer }: { customer: AdminCustomerDetail }) {
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const disabled = customer.disabled_at !== null;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen("credit")}>
        <Diff aria-hidden="true" className="size-4" />
        Credit or debit
      </Button>
      <Button variant="secondary" onClick={() => setOpen("revoke-sessions")}>
        <LogOut aria-hidden="true" className="size-4" />
        Revoke sessions
      </Button>
      <Button variant="secondary" onClick={() => setOpen("regenerate-credentials")}>
        <KeyRound aria-hidden="true" className="size-4" />
        Regenerate credentials
      </Button>
      {disabled ? (
        <Button variant="secondary" onClick={() => setOpen("enable")}>
          <CircleCheck aria-hidden="true" className="size-4" />
          Enable account
        </Button>
      ) : (
        <Button variant="secondary" className="text-red-700" onClick={() => setOpen("disable")}>
          <Ban aria-hidden="true" className="size-4" />
          Disable account
        </Button>
      )}
      {open === "credit" ? <CreditDialog customer={customer} onClose={close} /> : null}
      {open !== null && open !== "credit" ? (
        <ActionDialog customer={customer} action={open} onClose={close} />
      ) : null}
    </>
  );
}

function CreditDialog({ customer, onClose }: { customer: AdminCustomerDetail; onClose: () => void }) {
  const credit = useCreditCustomer(customer.id);
  // One key per opening of the dialog: a retried submit is the same credit, never a second one.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [direction, setDirection] = useState<"credit" | "debit">("credit");
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const gb = Number(amount);
  const valid = amount.trim() !== "" && Number.isFinite(gb) && gb > 0;
  const signed = direction === "credit" ? gb : -gb;

  const consequence = valid
    ? `${direction === "credit" ? "Adds" : "Takes"} ${formatGb(gb)} ${direction === "credit" ? "to" : "from"} ${customer.email}'s balance: ${formatGb(customer.balance_gb)} becomes ${formatGb(customer.balance_gb + signed)}. The note goes into their ledger and the audit log.`
    : `Changes ${customer.email}'s balance (now ${formatGb(customer.balance_gb)}). The note goes into their ledger and the audit log.`;

  function confirm() {
    if (!valid) return setInvalid("Enter a number of GB greater than 0.");
    if (!note.trim()) return setInvalid("Write a note: why this change.");
    setInvalid(null);
    credit.mutate(
      { body: { gb: signed, note: note.trim() }, idempotencyKey },
      {
        onSuccess: (answer) => {
          toast.success(answer.message, { toasterId: ADMIN_TOASTER_ID });
          onClose();
        },
      },
    );
  }

  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={`Credit or debit ${customer.email}`}
      consequence={consequence}
      confirmLabel={direction === "credit" ? "Credit" : "Debit"}
      danger={direction === "debit"}
      pending={credit.isPending}
      error={invalid ? new Error(invalid) : credit.error}
      onConfirm={confirm}
      testId="credit-dialog"
    >
      <fieldset className="flex gap-4 text-sm">
        <legend className="sr-only">Direction</legend>
        {(["credit", "debit"] as const).map((value) => (
          <label key={value} className="inline-flex items-center gap-2">
            <input
              type="radio"
              name="direction"
              value={value}
              checked={direction === value}
              onChange={() => setDirection(value)}
            />
            {value === "credit" ? "Credit (add GB)" : "Debit (take GB)"}
          </label>
        ))}
      </fieldset>
      <Field label="GB">
        {(control) => (
          <input
            {...control}
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
          />
        )}
      </Field>
      <Field label="Note" hint="Shown in the ledger and the audit log.">
        {(control) => (
          <input
            {...control}
            value={note}
            maxLength={500}
            onChange={(event) => setNote(event.target.value)}
          />
        )}
      </Field>
    </ConfirmDialog>
  );
}

const ACTION_WORDS: Record<
  CustomerAction,
  {
    title: string;
    confirm: string;
    danger: boolean;
    consequence: (customer: AdminCustomerDetail) => ReactNode;
  }
> = {
  "revoke-sessions": {
    title: "Revoke sessions",
    confirm: "Revoke sessions",
    danger: true,
    consequence: (customer) =>
      `Signs ${customer.email} out of every browser (${customer.sessions.active} active ${customer.sessions.active === 1 ? "session" : "sessions"}); they sign in again with an e-mailed link. Their proxy credentials keep working.`,
  },
  "regenerate-credentials": {
    title: "Regenerate proxy credentials",
    confirm: "Regenerate",
    danger: true,
    consequence: (customer) =>
      `Gives ${customer.email} a new proxy username and password${customer.proxy_credentials.username ? ` (now ${customer.proxy_credentials.username})` : ""}. Programs using the old ones are refused until the customer copies the new ones from Connect.`,
  },
  disable: {
    title: "Disable account",
    confirm: "Disable",
    danger: true,
    consequence: (customer) =>
      `${customer.email}'s API calls get 403 and the gateway refuses their proxy requests with 403 account_disabled within seconds, closing open connections. Their balance of ${formatGb(customer.balance_gb)} is kept; enabling the account restores everything.`,
  },
  enable: {
    title: "Enable account",
    confirm: "Enable",
    danger: false,
    consequence: (customer) =>
      `${customer.email} can use the API and the proxy again, with their balance of ${formatGb(customer.balance_gb)}.`,
  },
};

function ActionDialog({
  customer,
  action,
  onClose,
}: {
  customer: AdminCustomerDetail;
  action: CustomerAction;
  onClose: () => void;
}) {
  const mutation = useCustomerAction(customer.id);
  const [note, setNote] = useState("");
  const words = ACTION_WORDS[action];
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={words.title}
      consequence={words.consequence(customer)}
      confirmLabel={words.confirm}
      danger={words.danger}
      pending={mutation.isPending}
      error={mutation.error}
      onConfirm={() =>
        mutation.mutate(
          { action, note },
          {
            onSuccess: (answer) => {
              toast.success(answer.message, { toasterId: ADMIN_TOASTER_ID });
              onClose();
            },
          },
        )
      }
      testId={`${action}-dialog`}
    >
      <Field label="Note (optional)" hint="Kept in the audit log.">
        {(control) => (
          <input
            {...control}
            value={note}
            maxLength={500}
            onChange={(event) => setNote(event.target.value)}
          />
        )}
      </Field>
    </ConfirmDialog>
  );
}
