import { autoTopupSummary } from "@bytetoll/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog } from "../../../components/ui/dialog.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { AUTO_TOPUP_QUERY_KEY, useAutoTopup } from "../api/auto-topup.ts";
import { AutoTopupForm } from "./auto-topup-form.tsx";

export const AUTO_TOPUP_LOAD_FAILED = "Could not load auto top-up.";

/** The Data Balance card's auto top-up line ("Auto top-up: on below 1 GB, +$50", or off with a way
 * to set it up) and its dialog. Back from the card page (`?card_setup=`), the dialog opens again
 * with the card read afresh. */
export function AutoTopupLine({ balanceGb }: { balanceGb: number | null }) {
  const settings = useAutoTopup();
  const [open, setOpen] = useState(false);
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const backFromCardPage = params.has("card_setup");

  useEffect(() => {
    if (!backFromCardPage) return;
    void queryClient.invalidateQueries({ queryKey: AUTO_TOPUP_QUERY_KEY });
    setOpen(true);
    setParams(
      (current) => {
        current.delete("card_setup");
        return current;
      },
      { replace: true },
    );
  }, [backFromCardPage, queryClient, setParams]);

  if (settings.isPending) return <Skeleton className="h-6 w-56" />;
  if (settings.isError)
    return (
      <p role="alert" className="text-sm text-red-600">
        {AUTO_TOPUP_LOAD_FAILED}
      </p>
    );
  const { data } = settings;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <RefreshCw aria-hidden="true" className="size-4 text-slate-500" />
      <p className="text-sm text-slate-700" data-testid="auto-topup-summary">
        {autoTopupSummary(data)}
      </p>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        testId="auto-topup-dialog"
        trigger={
          <Button variant="secondary" className="px-3 py-1.5">
            {data.enabled ? "Change" : "Set up"}
          </Button>
        }
      >
        <AutoTopupForm settings={data} balanceGb={balanceGb} />
      </Dialog>
      {!data.enabled && data.failures >= 3 ? (
        <p className="w-full text-xs text-red-600">Turned off after 3 failed charges in a row.</p>
      ) : null}
    </div>
  );
}
