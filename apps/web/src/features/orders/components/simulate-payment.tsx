import { Button } from "../../../components/ui/button.tsx";
import type { Order } from "../api/order.ts";
import { useSimulateSandboxPayment } from "../api/simulate-sandbox-payment.ts";

/** A sandbox order has no network to pay on: "Simulate payment" pays it as the card sandbox's
 * "Pay" does, so the whole checkout can be tried without money. */
export function SimulatePayment({ order }: { order: Order }) {
  const simulate = useSimulateSandboxPayment(order.order_id);
  if (order.provider !== "sandbox") return null;
  return (
    <div className="space-y-2 rounded-lg border border-dashed border-slate-300 px-3 py-2 text-sm">
      <p className="text-slate-600">Sandbox: no USDC is needed. Simulate the payment to credit this order.</p>
      <Button variant="secondary" disabled={simulate.isPending} onClick={() => simulate.mutate()}>
        {simulate.isPending ? "Simulating…" : "Simulate payment"}
      </Button>
      {simulate.isError ? (
        <p role="alert" className="text-red-700">
          {simulate.error.message}
        </p>
      ) : null}
    </div>
  );
}
