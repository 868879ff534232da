import type { AutoTopupSettings } from "@bytetoll/contracts";
import { CreditCard } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { useRemoveCard, useStartCardSetup } from "../api/auto-topup.ts";
import { cardName } from "./auto-topup-fields.ts";

/** The card auto top-up charges: add or replace it on the card provider's page, or remove it
 * (which turns auto top-up off) after a confirmation. */
export function SavedCard({ card }: { card: AutoTopupSettings["card"] }) {
  const setup = useStartCardSetup();
  const remove = useRemoveCard();
  const [confirming, setConfirming] = useState(false);
  const error = setup.error ?? remove.error;

  function openCardPage() {
    setup.mutate(undefined, { onSuccess: (url) => window.location.assign(url) });
  }

  return (
    <div className="space-y-2 rounded-xl border border-slate-200 p-3" data-testid="saved-card">
      <div className="flex flex-wrap items-center gap-2">
        <CreditCard aria-hidden="true" className="size-5 text-slate-500" />
        <p className="grow text-sm text-slate-900">
          {card ? `Card: ${cardName(card)}` : "No card saved yet."}
        </p>
        <Button variant="secondary" onClick={openCardPage} disabled={setup.isPending}>
          {setup.isPending ? "Opening…" : card ? "Replace card" : "Add a card"}
        </Button>
        {card && !confirming ? (
          <Button variant="secondary" onClick={() => setConfirming(true)}>
            Remove card
          </Button>
        ) : null}
      </div>
      <p className="text-xs text-slate-500">
        {card
          ? "Replacing it opens the card page; nothing is charged until a top-up is due."
          : "You go to the card page to save it; nothing is charged now."}
      </p>
      {confirming ? (
        <section aria-label="Remove card" className="space-y-2 rounded-lg bg-amber-50 p-3">
          <p className="text-sm text-amber-900">Remove this card? Auto top-up turns off.</p>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Keep card
            </Button>
            <Button
              onClick={() => remove.mutate(undefined, { onSuccess: () => setConfirming(false) })}
              disabled={remove.isPending}
            >
              {remove.isPending ? "Removing…" : "Yes, remove card"}
            </Button>
          </div>
        </section>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-red-600">
          {error.message}
        </p>
      ) : null}
    </div>
  );
}
