/**
 * The order of decision 003: one JSON shape for the API, realtime events and the CLI.
 * Written from the decision record because packages/contracts has no order schema yet.
 */
export type PaymentStatus = "waiting" | "paid" | "partially_paid" | "failed" | "expired";

export const NETWORKS = ["solana", "polygon", "base", "ethereum"] as const;
export type Network = (typeof NETWORKS)[number];

export type PaymentMethod = "crypto" | "card";

export interface Order {
  order_id: string;
  user_id: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
  paid_at: string | null;
  note: string | null;
  method: PaymentMethod;
  network_type: Network | null;
  amount_usd: number;
  gb: number;
  /** A string rather than the union: SPEC §4 shows unknown statuses capitalised, so the page tolerates them. */
  payment_status: PaymentStatus | (string & {});
  pay_address: string | null;
  qr_code: string | null;
  price_amount: number | null;
  payment_token: string | null;
  payin_hash: string | null;
  transaction_url: string | null;
  balance_gb_after: number | null;
  stripe_redirect_url: string | null;
  deal_id: string | null;
  quantity: number | null;
}

/** POST /transactions body (decision 003). */
export interface CreateTransactionRequest {
  amount: number;
  method: PaymentMethod;
  network_type?: Network;
  /** The decoded id of SPEC's `di` parameter, as the decimal string the server takes. */
  deal_id?: string;
  quantity?: number;
}

/** GET /transactions: one page of history, newest first. */
export interface TransactionPage {
  success: true;
  data: Order[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  from: number | null;
  to: number | null;
}
