import {
  FACTOR_CHALLENGE_INVALID,
  FACTOR_CODE_INVALID,
  type TwoFactorChallenge,
  type TwoFactorVerifyRequest,
} from "@bytetoll/contracts";
import { type Database, hashSecret, randomSecret, type SqlExecutor } from "@bytetoll/db";
import { AppError } from "../../errors.ts";
import { factorChecks, limitKeys } from "./factor-checks.ts";
import { passkeyCeremonies, relyingParty } from "./passkey-ceremonies.ts";
import { createTwoFactorRepository, type SignInChallenge } from "./repository.ts";

/** How long a followed link waits for its second factor. */
const SIGN_IN_CHALLENGE_MINUTES = 10;

export interface PendingOrder {
  purchaseAmountUsd: number | null;
  dealId: number | null;
}

const challengeInvalid = () => new AppError(401, FACTOR_CHALLENGE_INVALID, "invalid_challenge");
const wrongFactor = () => new AppError(401, FACTOR_CODE_INVALID, "invalid_code");

/**
 * The second step of signing in: a followed link of an account with a factor yields a challenge
 * instead of a session, and the challenge plus one factor yields the session.
 */
export function createSignInFactor({
  database,
  config,
}: {
  database: Database;
  config: { APP_URL: string; JWT_SECRET: string };
}) {
  const repository = createTwoFactorRepository(database);
  const checks = factorChecks(repository, config.JWT_SECRET);
  const ceremonies = passkeyCeremonies(relyingParty(config.APP_URL));

  /** Whether the factor in `input` is right for the challenge's account (and takes it once). */
  async function factorIsRight(tx: SqlExecutor, challenge: SignInChallenge, input: TwoFactorVerifyRequest) {
    if (input.code !== undefined) return checks.totpCodeIsRight(tx, challenge.user_id, input.code);
    if (input.recovery_code !== undefined)
      return checks.recoveryCodeIsRight(tx, challenge.user_id, input.recovery_code);
    const assertion = input.passkey;
    if (!assertion || !challenge.webauthn_challenge) return false;
    const passkey = (await repository.passkeys(tx, challenge.user_id)).find(
      (candidate) => candidate.credential_id === assertion.id,
    );
    if (!passkey) return false;
    const counter = await ceremonies.verifyAuthentication(assertion, challenge.webauthn_challenge, passkey);
    return (
      counter !== null && (await repository.usePasskey(tx, passkey.id, Number(passkey.counter), counter))
    );
  }

  return {
    /** The challenge for an account with a factor (null without one), in the link's transaction. */
    async open(tx: SqlExecutor, userId: string, order: PendingOrder): Promise<TwoFactorChallenge | null> {
      if (!(await repository.hasFactor(tx, userId))) return null;
      const totp = await repository.totp(tx, userId);
      const passkeys = await repository.passkeys(tx, userId);
      const options = passkeys.length > 0 ? await ceremonies.authenticationOptions(passkeys) : null;
      const challenge = randomSecret(32);
      await repository.insertChallenge(tx, {
        userId,
        purpose: "sign_in",
        tokenHash: hashSecret(challenge),
        webauthnChallenge: options?.challenge ?? null,
        purchaseAmountUsd: order.purchaseAmountUsd,
        dealId: order.dealId,
        validMinutes: SIGN_IN_CHALLENGE_MINUTES,
      });
      const methods: TwoFactorChallenge["methods"] = [];
      if (totp?.enabled) methods.push("totp");
      if (options) methods.push("passkey");
      methods.push("recovery_code");
      return {
        two_factor_required: true,
        challenge,
        methods,
        passkey_options: options as unknown as Record<string, unknown> | null,
      };
    },

    /** Spends the challenge when the factor is right; wrong tries are counted per account and
     * per address (429 past the limit, the challenge unspent). */
    async redeem(input: TwoFactorVerifyRequest, ip: string): Promise<{ userId: string } & PendingOrder> {
      const tokenHash = hashSecret(input.challenge);
      const found = await repository.signInChallenge(database.db, tokenHash);
      if (!found) throw challengeInvalid();
      return checks.limited(limitKeys(found.user_id, ip), wrongFactor, async (tx) => {
        const challenge = await repository.signInChallenge(tx, tokenHash, true);
        if (!challenge) throw challengeInvalid();
        if (!(await factorIsRight(tx, challenge, input))) return null;
        if (!(await repository.useChallenge(tx, challenge.id))) throw challengeInvalid();
        return {
          userId: challenge.user_id,
          purchaseAmountUsd:
            challenge.purchase_amount_usd === null ? null : Number(challenge.purchase_amount_usd),
          dealId: challenge.deal_id === null ? null : Number(challenge.deal_id),
        };
      });
    },
  };
}

export type SignInFactor = ReturnType<typeof createSignInFactor>;
