import { WALLET_ADDRESS_REQUIRED, WITHDRAW_FAILED } from "@bytetoll/contracts";
import * as Dialog from "@radix-ui/react-dialog";
import { Loader2, X } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
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
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant="secondary" className="py-1.5" disabled={deposit <= 0}>
          Withdraw
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <WithdrawForm
            dealId={dealId}
            deposit={deposit}
            refundAddress={refundAddress}
            onDone={() => setOpen(false)}
          />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
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
      <div className="flex items-start justify-between gap-4">
        <div>
          <Dialog.Title className="text-lg font-semibold text-slate-900">Withdraw deposit</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-500">
            {formatMoney(deposit)} is sent back to this wallet in USDC.
          </Dialog.Description>
        </div>
        <Dialog.Close asChild>
          <Button variant="ghost" aria-label="Close">
            <X aria-hidden="true" className="size-5" />
          </Button>
        </Dialog.Close>
      </div>
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
