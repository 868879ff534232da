import { XCircle } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogHeader } from "../../../components/ui/dialog.tsx";
import { useCancelTransaction } from "../api/cancel-transaction.ts";
import { errorMessage } from "../hooks/use-start-purchase.ts";

export const CANCEL_FAILED_MESSAGE = "Failed to cancel the order";

/** "Cancel order" on a waiting order's page, confirmed in a dialog (docs/product.md#order-page). */
export function CancelOrderDialog({ orderId }: { orderId: string }) {
  const [open, setOpen] = useState(false);
  const cancel = useCancelTransaction(orderId);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) cancel.reset();
      }}
      testId="cancel-order-dialog"
      trigger={
        <Button variant="secondary">
          <XCircle aria-hidden="true" className="size-4" />
          Cancel order
        </Button>
      }
    >
      <DialogHeader
        title="Cancel this order?"
        description="It can no longer be paid once cancelled. Do not send a payment for it; one already on its way is still credited."
      />
      {cancel.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-600">
          {errorMessage(cancel.error, CANCEL_FAILED_MESSAGE)}
        </p>
      ) : null}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => setOpen(false)}>
          Keep order
        </Button>
        <Button
          disabled={cancel.isPending}
          onClick={() => cancel.mutate(undefined, { onSuccess: () => setOpen(false) })}
        >
          {cancel.isPending ? "Cancelling..." : "Yes, cancel order"}
        </Button>
      </div>
    </Dialog>
  );
}
