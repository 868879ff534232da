import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { getTransaction, transactionQueryKey } from "../api/get-transaction.ts";
import { errorMessage } from "./use-start-purchase.ts";

/** docs/product.md#formats-and-limits: "Checking..." stays at least this long so a fast answer does not just flicker. */
export const MIN_CHECKING_MS = 500;

/**
 * Manual Refresh of an order (docs/product.md#routes-and-layout): one direct read, shown as "Checking..." and, when it fails,
 * "Failed to refresh: {message}". No retries: the person asked now and should hear back now.
 */
export function useRefreshOrder(orderId: string) {
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function refresh(): Promise<void> {
    if (checking) return;
    setChecking(true);
    setError(null);
    const minimum = new Promise((resolve) => setTimeout(resolve, MIN_CHECKING_MS));
    try {
      const [order] = await Promise.all([getTransaction(orderId), minimum]);
      queryClient.setQueryData(transactionQueryKey(orderId), order);
    } catch (failure) {
      await minimum;
      setError(`Failed to refresh: ${errorMessage(failure, "Failed to fetch transaction")}`);
    }
    setChecking(false);
  }

  return { refresh, checking, error };
}
