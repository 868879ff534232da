import { useState } from "react";
import { useNavigate } from "react-router";
import { useChoosePayment } from "../api/choose-payment.ts";
import { createCardSession } from "../api/create-card-session.ts";
import { useCreateTransaction } from "../api/create-transaction.ts";
import type { Network } from "../api/order.ts";
import { leavePage } from "../leave-page.ts";

export type PaymentChoice = { method: "crypto"; network: Network } | { method: "card" };

export interface PurchaseRequest {
  amountUsd: number;
  choice: PaymentChoice;
  /** The encoded id of the deal bought (the di link parameter). */
  dealId?: string;
  /** An order that exists without a payment method (made at sign-in): pay it instead of
   * creating another. */
  orderId?: string;
}

export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

export const orderPath = (orderId: string) => `/checkout?order_id=${encodeURIComponent(orderId)}`;

/** Opens the hosted card page of an existing order; the browser leaves the app from here. */
export async function goToCardPage(orderId: string): Promise<void> {
  const url = await createCardSession(orderId);
  leavePage(url);
}

/**
 * The step where money starts to move, shared by Buy More and the checkout form: create the order
 * (or choose how to pay one made at sign-in), then show its payment page (USDC) or leave for the
 * hosted card page (card).
 */
export function useStartPurchase() {
  const createTransaction = useCreateTransaction();
  const choosePayment = useChoosePayment();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function start({ amountUsd, choice, dealId, orderId }: PurchaseRequest): Promise<void> {
    setError(null);
    setPending(true);
    try {
      if (orderId !== undefined) {
        await choosePayment.mutateAsync({
          orderId,
          request: choice.method === "crypto" ? { method: "crypto", network_type: choice.network } : choice,
        });
        // Card leaves for the hosted page; USDC stays: the order view shows the pay address.
        if (choice.method === "card") {
          await goToCardPage(orderId);
          return;
        }
        setPending(false);
        return;
      }
      const order = await createTransaction.mutateAsync({
        amount: amountUsd,
        method: choice.method,
        ...(choice.method === "crypto" ? { network_type: choice.network } : {}),
        ...(dealId !== undefined ? { deal_id: dealId } : {}),
      });
      if (choice.method === "card") {
        await goToCardPage(order.order_id);
        // Stay "pending": the page is being replaced by the card page.
        return;
      }
      await navigate(orderPath(order.order_id));
    } catch (failure) {
      setError(errorMessage(failure, "Something went wrong. Please try again."));
    }
    setPending(false);
  }

  return { start, pending, error };
}
