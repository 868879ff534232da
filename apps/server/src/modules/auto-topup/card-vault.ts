/**
 * Saving a card and charging it later without the customer (off-session): the one interface auto
 * top-up uses, with Stripe (stripe-card-vault.ts) and the sandbox behind it.
 */
export interface SavedCard {
  /** The provider's customer the card belongs to (Stripe needs it to charge off-session). */
  customerId: string | null;
  methodId: string;
  brand: string;
  last4: string;
}

export type ChargeResult =
  | { status: "paid"; paymentId: string }
  | { status: "declined"; paymentId: string | null; message: string }
  /** Not settled yet (a card still processing): the sweep asks again. */
  | { status: "pending"; paymentId: string };

export interface CardVault {
  readonly name: "sandbox" | "stripe";
  /** Opens the provider's card page (Checkout in setup mode). `customerId` is the account's
   * customer at the provider, if it has one already. */
  startSetup(input: {
    setupId: string;
    userId: string;
    email: string;
    customerId: string | null;
    returnUrl: string;
  }): Promise<{ redirectUrl: string; sessionId: string | null; customerId: string | null }>;
  /** The card a completed card page saved, or null while it is not completed. */
  readSetup(sessionId: string): Promise<SavedCard | null>;
  /** Charges the saved card once per order (the order id is the idempotency key, so a retry after
   * a crash or a timeout never charges twice). Throws when the provider cannot be reached. */
  charge(input: {
    orderId: string;
    amountCents: number;
    customerId: string | null;
    methodId: string;
    description: string;
  }): Promise<ChargeResult>;
  /** Tells the provider the card is no longer to be used (best effort). */
  forget(methodId: string): Promise<void>;
}

/** The sandbox's test cards, saved from its card page: one always pays, one is always declined
 * (as Stripe's 4242… and 4000 0000 0000 0341 test cards do off-session). */
export const SANDBOX_CARDS = {
  pays: { methodId: "sandbox_pm_card_visa", brand: "visa", last4: "4242" },
  declines: { methodId: "sandbox_pm_card_declined", brand: "visa", last4: "0341" },
} as const;
export type SandboxCardKind = keyof typeof SANDBOX_CARDS;

export const SANDBOX_DECLINE_MESSAGE = "Your card was declined.";

/** Nothing leaves the machine: the sandbox card page saves a test card, and a charge of the paying
 * card succeeds at once. */
export function createSandboxCardVault(appUrl: string): CardVault {
  return {
    name: "sandbox",
    async startSetup({ setupId }) {
      return { redirectUrl: `${appUrl}/dev/card-setup/${setupId}`, sessionId: null, customerId: null };
    },
    // The sandbox page saves the card itself (POST /dev/card-setup/{id}); there is nothing to read.
    async readSetup() {
      return null;
    },
    async charge({ orderId, methodId }) {
      const paymentId = `sandbox-topup-${orderId}`;
      return methodId === SANDBOX_CARDS.pays.methodId
        ? { status: "paid", paymentId }
        : { status: "declined", paymentId, message: SANDBOX_DECLINE_MESSAGE };
    },
    async forget() {},
  };
}
