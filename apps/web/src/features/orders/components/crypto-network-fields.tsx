import { useId } from "react";
import { NETWORKS, type Network } from "../api/order.ts";

export const NETWORK_ACKNOWLEDGMENT =
  "I understand that sending tokens using another blockchain network will result in loss of funds.";

export const NETWORK_NAMES: Record<Network, string> = {
  solana: "Solana",
  polygon: "Polygon",
  base: "Base",
  ethereum: "Ethereum",
};

export function isNetwork(value: string): value is Network {
  return (NETWORKS as readonly string[]).includes(value);
}

/** docs/product.md#routes-and-layout/§5: the USDC network and the loss-of-funds acknowledgment, both required to pay. */
export function CryptoNetworkFields({
  network,
  onNetworkChange,
  acknowledged,
  onAcknowledgedChange,
}: {
  network: Network | null;
  onNetworkChange: (network: Network | null) => void;
  acknowledged: boolean;
  onAcknowledgedChange: (acknowledged: boolean) => void;
}) {
  const selectId = useId();
  const checkboxId = useId();
  return (
    <div className="space-y-4">
      <div className="space-y-1.5">
        <label htmlFor={selectId} className="block text-sm font-medium text-slate-700">
          USDC network
        </label>
        <select
          id={selectId}
          value={network ?? ""}
          onChange={(event) => onNetworkChange(isNetwork(event.target.value) ? event.target.value : null)}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
        >
          <option value="">Select a network</option>
          {NETWORKS.map((value) => (
            <option key={value} value={value}>
              {NETWORK_NAMES[value]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3">
        <input
          id={checkboxId}
          type="checkbox"
          checked={acknowledged}
          onChange={(event) => onAcknowledgedChange(event.target.checked)}
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 text-indigo-600 focus:ring-2 focus:ring-indigo-500"
        />
        <label htmlFor={checkboxId} className="text-sm text-amber-900">
          {NETWORK_ACKNOWLEDGMENT}
        </label>
      </div>
    </div>
  );
}
