import { AUTO_TOPUP_MAX_FAILURES, bytesToGb } from "@bytetoll/contracts";
import { type Database, inTransaction, type Tx } from "@bytetoll/db";
import type { FastifyBaseLogger } from "fastify";
import type { MailMessage } from "../../plugins/mail.ts";
import type { OrderRow, OrdersService } from "../orders/index.ts";
import type { Settlement } from "../payments/index.ts";
import type { RaisedEvent } from "../webhooks/index.ts";
import type { CardVault, ChargeResult } from "./card-vault.ts";
import type { AutoTopupRepository } from "./repository.ts";
import { monthlyCapEmail, topupFailedEmail } from "./topup-email.ts";
import { topupFailedEvent, topupSucceededEvent } from "./topup-events.ts";

/** A top-up order still waiting this long after it was made is charged again by the sweep. */
export const UNCHARGED_AFTER_SECONDS = 30;

interface Deps {
  database: Database;
  repository: AutoTopupRepository;
  vaults: Partial<Record<CardVault["name"], CardVault>>;
  orders: Pick<OrdersService, "createAutoTopup" | "find">;
  settlement: Pick<Settlement, "settle" | "records">;
  /** Raises a webhook event inside the given transaction; `sent` wakes the dispatcher after it. */
  webhooks: { emit: (event: RaisedEvent, tx: Tx) => Promise<unknown>; sent: () => void };
  mail: (message: MailMessage) => Promise<void>;
  appUrl: string;
  log: FastifyBaseLogger;
}

const NO_CARD = "No saved card to charge.";

/** What a crossing of the threshold led to, decided in the claim's transaction. */
type Claim = { kind: "order"; order: OrderRow } | { kind: "capped"; email: string; capCents: number } | null;

/** Auto top-up's engine: a fall below the threshold makes one order (of all instances, by the
 * crossing flag) within the monthly cap, charged off-session to the saved card. */
export function createTopups({
  database,
  repository,
  vaults,
  orders,
  settlement,
  webhooks,
  mail,
  appUrl,
  log,
}: Deps) {
  async function claim(userId: string): Promise<Claim> {
    return inTransaction(database.db, async (tx) => {
      const row = await repository.claimCrossing(tx, userId);
      if (!row?.cardProvider) return null;
      const spent = await repository.spentThisMonthCents(tx, userId);
      if (spent + row.amountCents > row.monthlyCapCents) {
        const crossing = new Date(row.crossedAt ?? Date.now()).toISOString();
        const email = await repository.emailOf(tx, userId);
        const message = "This top-up would pass the monthly cap, so it was not charged.";
        await webhooks.emit(
          topupFailedEvent(userId, {
            order: null,
            crossing,
            amountCents: row.amountCents,
            reason: "monthly_cap_reached",
            message,
            failures: row.failures,
            enabled: row.enabled,
          }),
          tx,
        );
        return { kind: "capped", email, capCents: row.monthlyCapCents };
      }
      const provider = row.cardProvider as CardVault["name"];
      const order = await orders.createAutoTopup(tx, { userId, amountCents: row.amountCents, provider });
      return { kind: "order", order };
    });
  }

  async function settlePaid(order: OrderRow, result: Extract<ChargeResult, { status: "paid" }>) {
    await settlement.settle(
      order.id,
      { status: "paid" },
      {
        event: {
          provider: order.provider,
          type: order.provider === "stripe" ? "payment_intent.succeeded" : "sandbox.paid",
          reference: result.paymentId,
          summary: { amount: order.amountCents / 100, currency: "usd" },
        },
        // Stripe's payment intent is the order's provider payment: its refunds and disputes name it.
        providerPaymentId: order.provider === "stripe" ? result.paymentId : undefined,
        changed: async (tx, paid) => {
          await repository.recordOutcome(tx, paid.userId, true, AUTO_TOPUP_MAX_FAILURES);
          await webhooks.emit(topupSucceededEvent(paid), tx);
        },
      },
    );
    webhooks.sent();
  }

  async function settleDeclined(order: OrderRow, paymentId: string | null, message: string) {
    const told: { failures: number; enabled: boolean; email: string }[] = [];
    await settlement.settle(
      order.id,
      { status: "failed" },
      {
        event: {
          provider: order.provider,
          type: order.provider === "stripe" ? "payment_intent.payment_failed" : "sandbox.declined",
          reference: paymentId ?? `auto-topup:${order.id}`,
          summary: { amount: order.amountCents / 100, currency: "usd" },
        },
        changed: async (tx, failed) => {
          const outcome = (await repository.recordOutcome(
            tx,
            failed.userId,
            false,
            AUTO_TOPUP_MAX_FAILURES,
          )) ?? {
            failures: 1,
            enabled: false,
          };
          const { amountCents } = failed;
          await webhooks.emit(
            topupFailedEvent(failed.userId, {
              order: failed,
              crossing: failed.id,
              amountCents,
              reason: "card_declined",
              message,
              ...outcome,
            }),
            tx,
          );
          told.push({ ...outcome, email: await repository.emailOf(tx, failed.userId) });
        },
      },
    );
    webhooks.sent();
    // Only the call that failed the order tells the customer (a replay changes nothing).
    for (const outcome of told) {
      const turnedOff = !outcome.enabled && outcome.failures >= AUTO_TOPUP_MAX_FAILURES;
      await mail(
        topupFailedEmail(
          outcome.email,
          { amountCents: order.amountCents, reason: message, turnedOff },
          appUrl,
        ),
      );
    }
  }

  /** Charges a waiting top-up order to the saved card and settles what the provider answered. A
   * provider that cannot be reached leaves the order waiting for the sweep. */
  async function charge(orderId: string): Promise<void> {
    const order = await orders.find(orderId);
    if (order?.origin !== "auto_topup" || order.paymentStatus !== "waiting") return;
    const card = await repository.find(order.userId);
    const provider = order.provider as CardVault["name"];
    const vault = card?.providerMethodId && card.cardProvider === provider ? vaults[provider] : undefined;
    if (!card?.providerMethodId || !vault) return settleDeclined(order, null, NO_CARD);
    const result = await vault.charge({
      orderId: order.id,
      amountCents: order.amountCents,
      customerId: card.providerCustomerId,
      methodId: card.providerMethodId,
      description: `${bytesToGb(order.bytes)} GB of proxy data (auto top-up)`,
    });
    if (result.status === "paid") await settlePaid(order, result);
    if (result.status === "declined") await settleDeclined(order, result.paymentId, result.message);
  }

  return {
    /** After any change of the account's balance (every instance hears it): tops up once per
     * fall below the threshold. */
    async balanceChanged(userId: string): Promise<void> {
      const claimed = await claim(userId);
      if (!claimed) return;
      webhooks.sent();
      if (claimed.kind === "capped") {
        await mail(monthlyCapEmail(claimed.email, claimed.capCents, appUrl));
        return;
      }
      await charge(claimed.order.id);
    },

    /** Charges the top-up orders left waiting (an instance stopped mid-way, a provider timeout). */
    async sweep(): Promise<void> {
      for (const order of await repository.unchargedOrders(UNCHARGED_AFTER_SECONDS)) {
        await charge(order.id).catch((error: unknown) =>
          log.warn({ err: error, orderId: order.id }, "auto top-up charge failed; retried later"),
        );
      }
    },
  };
}

export type Topups = ReturnType<typeof createTopups>;
