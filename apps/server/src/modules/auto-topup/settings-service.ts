import { randomUUID } from "node:crypto";
import {
  ADD_A_CARD_FIRST,
  AUTO_TOPUP_DEFAULTS,
  type AutoTopupSettings,
  type AutoTopupUpdate,
  belowMinimumOrderMessage,
  bytesToGb,
  centsToUsd,
  gbToBytes,
  minimumOrderUsd,
  usdToCents,
} from "@bytetoll/contracts";
import { type Database, inTransaction } from "@bytetoll/db";
import type { FastifyBaseLogger } from "fastify";
import { AppError, notFound, paymentUnavailable } from "../../errors.ts";
import type { CardVault, SandboxCardKind } from "./card-vault.ts";
import { SANDBOX_CARDS } from "./card-vault.ts";
import type { AutoTopupRepository, AutoTopupRow } from "./repository.ts";

const CARD_UNAVAILABLE = "Card payments are not available.";
/** How long a card page can still be completed (Stripe Checkout sessions last 24 hours). */
const SETUP_PAGE_LIFETIME_MS = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Deps {
  database: Database;
  repository: AutoTopupRepository;
  /** The provider that saves new cards (Stripe, or the sandbox outside production); null: none. */
  vault: CardVault | null;
  vaults: Partial<Record<CardVault["name"], CardVault>>;
  config: { APP_URL: string; PRICE_PER_GB_USD: number };
  /** After a change that may start a top-up at once (turned on below the threshold). */
  judge: (userId: string) => void;
  log: FastifyBaseLogger;
}

/** GET /settings/auto-topup's shape; an account that never set anything reads the defaults. */
function settingsView(row: AutoTopupRow | undefined, spentCents: number): AutoTopupSettings {
  const card =
    row?.providerMethodId && row.cardLast4 ? { brand: row.cardBrand ?? "card", last4: row.cardLast4 } : null;
  return {
    enabled: row?.enabled ?? false,
    threshold_gb: row ? bytesToGb(row.thresholdBytes) : AUTO_TOPUP_DEFAULTS.threshold_gb,
    amount_usd: row ? centsToUsd(row.amountCents) : AUTO_TOPUP_DEFAULTS.amount_usd,
    monthly_cap_usd: row ? centsToUsd(row.monthlyCapCents) : AUTO_TOPUP_DEFAULTS.monthly_cap_usd,
    card,
    spent_this_month_usd: centsToUsd(spentCents),
    failures: row?.failures ?? 0,
  };
}

/** The customer's side of auto top-up: its settings and the saved card. */
export function createAutoTopupSettings({ database, repository, vault, vaults, config, judge, log }: Deps) {
  async function read(userId: string): Promise<AutoTopupSettings> {
    const row = await repository.find(userId);
    return settingsView(row, await repository.spentThisMonthCents(database.db, userId));
  }

  /** A card page the customer completed at the provider but whose webhook has not arrived: read
   * it now, so coming back to the dashboard shows the card. */
  async function completePendingSetup(row: AutoTopupRow | undefined): Promise<void> {
    if (!row?.setupId || !row.setupSessionId || !row.setupStartedAt) return;
    // Stripe's Checkout sessions expire after a day: an abandoned card page is not read forever.
    if (Date.now() - new Date(row.setupStartedAt).getTime() > SETUP_PAGE_LIFETIME_MS) return;
    const provider = vaults.stripe;
    if (!provider) return;
    try {
      await completeSetup(provider, row.setupSessionId, row.setupId);
    } catch (error) {
      log.warn(
        { err: error, userId: row.userId },
        "card setup not read; the webhook or a later read saves it",
      );
    }
  }

  async function completeSetup(provider: CardVault, sessionId: string, setupId: string): Promise<boolean> {
    const card = await provider.readSetup(sessionId);
    if (!card) return false;
    const saved = await repository.saveCard(setupId, provider.name, card);
    if (saved?.replacedMethodId) await provider.forget(saved.replacedMethodId);
    return saved !== null;
  }

  return {
    async get(userId: string): Promise<AutoTopupSettings> {
      await completePendingSetup(await repository.find(userId));
      return read(userId);
    },

    async update(userId: string, input: AutoTopupUpdate): Promise<AutoTopupSettings> {
      const minimumUsd = minimumOrderUsd(config.PRICE_PER_GB_USD, false);
      if (input.amount_usd < minimumUsd) {
        throw new AppError(
          400,
          `amount_usd: ${belowMinimumOrderMessage(minimumUsd, false)}`,
          "below_minimum",
        );
      }
      await inTransaction(database.db, async (tx) => {
        const row = await repository.lock(tx, userId);
        if (input.enabled && !row.providerMethodId) throw new AppError(409, ADD_A_CARD_FIRST, "no_card");
        const values = {
          enabled: input.enabled,
          thresholdBytes: gbToBytes(input.threshold_gb),
          amountCents: usdToCents(input.amount_usd),
          monthlyCapCents: usdToCents(input.monthly_cap_usd),
        };
        await repository.save(tx, row, values);
      });
      // Judged now, not at the next balance change: turned on (or a threshold raised) above the
      // balance tops up at once.
      if (input.enabled) judge(userId);
      return read(userId);
    },

    /** POST /settings/auto-topup/card: the provider's card page; completing it saves the card. */
    async startCardSetup(userId: string, email: string): Promise<{ redirect_url: string }> {
      if (!vault) throw paymentUnavailable(CARD_UNAVAILABLE, 503);
      const setupId = randomUUID();
      const customerId = await inTransaction(database.db, async (tx) => {
        const row = await repository.lock(tx, userId);
        await repository.startSetup(tx, userId, { setupId, provider: vault.name });
        return row.cardProvider === vault.name || !row.cardProvider ? row.providerCustomerId : null;
      });
      const started = await vault.startSetup({
        setupId,
        userId,
        email,
        customerId,
        returnUrl: `${config.APP_URL}/?card_setup=${setupId}`,
      });
      await repository.attachSetupSession(setupId, started.sessionId, started.customerId);
      return { redirect_url: started.redirectUrl };
    },

    /** A provider says a card page was completed (Stripe's checkout.session.completed in setup
     * mode). False when the session is not one of ours or not completed. */
    async setupCompleted(sessionId: string): Promise<boolean> {
      const provider = vaults.stripe;
      const row = await repository.findBySetupSession(sessionId);
      return provider && row?.setupId ? completeSetup(provider, sessionId, row.setupId) : false;
    },

    /** The sandbox card page saved a test card. */
    async saveSandboxCard(setupId: string, kind: SandboxCardKind): Promise<AutoTopupRow> {
      const card = SANDBOX_CARDS[kind];
      const saved = await repository.saveCard(setupId, "sandbox", { customerId: null, ...card });
      if (!saved) throw notFound("This card page is no longer open.");
      return saved.row;
    },

    /** DELETE /settings/auto-topup/card: the card is gone, and auto top-up with it. */
    async removeCard(userId: string): Promise<AutoTopupSettings> {
      const removed = await repository.removeCard(userId);
      if (removed?.methodId && removed.provider) await vaults[removed.provider]?.forget(removed.methodId);
      return read(userId);
    },

    findSetup: (setupId: string) =>
      UUID.test(setupId) ? repository.findBySetup(setupId) : Promise.resolve(undefined),
  };
}

export type AutoTopupSettingsService = ReturnType<typeof createAutoTopupSettings>;
