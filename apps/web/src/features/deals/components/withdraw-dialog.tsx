import { WALLET_ADDRESS_REQUIRED, WITHDRAW_FAILED } from "@bytetoll/contracts";
import { Loader2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogHeader } from "../../../components/ui/dialog.tsx";
import { formatMoney } from "../../../lib/format.ts";
import { useWithdrawDeposit } from "../api/withdraw-deposit.ts";

interface WithdrawDialogProps {
  dealId: string;
  deposit: number;
  refundAddress: string | null;
}

/** Withdraw a group-buy deposit to a wallet (prefilled with the refund address). */
export function WithdrawDialog({ dealId, deposit, refundAddress }: WithdrawDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="secondary" className="py-1.5" disabled={deposit <= 0}>
          Withdraw
        </Button>
      }
    >
      <WithdrawForm
        dealId={dealId}
        deposit={deposit}
        refundAddress={refundAddress}
        onDone={() => setOpen(false)}
      />
    </Dialog>
  );
}

function WithdrawForm({
  dealId,
  deposit,
  refundAddress,
  onDone,
}: WithdrawDialogProps & { onDone: () => void }) {
  const [wallet, setWallet] = useState(refundAddress ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const withdraw = useWithdrawDeposit(dealId);
  const inputId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const address = wallet.trim();
    if (!address) {
      setProblem(WALLET_ADDRESS_REQUIRED);
      return;
    }
    setProblem(null);
    try {
      await withdraw.mutateAsync(address);
      onDone();
    } catch (error) {
      setProblem(error instanceof Error && error.message ? error.message : WITHDRAW_FAILED);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <DialogHeader
        title="Withdraw deposit"
        description={`${formatMoney(deposit)} is sent back to this wallet in USDC.`}
      />
      <div className="space-y-1.5">
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
          Wallet address
        </label>
        <input
          id={inputId}
          value={wallet}
          onChange={(event) => setWallet(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          className="block w-full rounded-lg border border-slate-300 px-3 py-2.5 font-mono text-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none"
        />
      </div>
      {problem ? (
        <p role="alert" className="text-sm text-red-600">
          {problem}
        </p>
      ) : null}
      <Button type="submit" className="w-full" disabled={deposit <= 0 || withdraw.isPending}>
        {withdraw.isPending ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
        Withdraw
      </Button>
    </form>
  );
}
