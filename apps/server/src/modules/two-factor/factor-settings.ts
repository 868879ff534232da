import {
  FACTOR_CODE_INVALID,
  type FactorStatus,
  type Passkey,
  type PasskeyRegisterRequest,
  type TotpDisableRequest,
} from "@bytetoll/contracts";
import type { Database, SqlExecutor } from "@bytetoll/db";
import { AppError, notFound } from "../../errors.ts";
import { qrCodeFor } from "../../lib/qr-png.ts";
import type { AuthUser } from "../../types.ts";
import { factorChecks, limitKeys } from "./factor-checks.ts";
import { passkeyCeremonies, relyingParty } from "./passkey-ceremonies.ts";
import { createTwoFactorRepository, type StoredPasskey } from "./repository.ts";
import { newTotpSecret, otpauthUrl } from "./totp.ts";

/** How long a passkey registration may take between its options and the browser's answer. */
const PASSKEY_CHALLENGE_MINUTES = 5;

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());
export const passkeyView = (passkey: StoredPasskey): Passkey => ({
  id: passkey.id,
  name: passkey.name,
  created_at: iso(passkey.created_at)!,
  last_used_at: iso(passkey.last_used_at),
});

const wrongCode = () => new AppError(400, FACTOR_CODE_INVALID, "invalid_code");

/** Changing factors is for a signed-in person: an API token (a script) cannot weaken sign-in. */
function requireSession(user: AuthUser): void {
  if (!user.sessionId)
    throw new AppError(
      403,
      "Second factors are changed from a signed-in session, not with an API token.",
      "forbidden",
    );
}

/**
 * An account's second factors: an authenticator app (set up, then enabled by a first code) and
 * passkeys. Turning a first factor on gives ten recovery codes; removing the last one drops them.
 */
export function createFactorSettings({
  database,
  config,
}: {
  database: Database;
  config: { APP_URL: string; JWT_SECRET: string };
}) {
  const repository = createTwoFactorRepository(database);
  const checks = factorChecks(repository, config.JWT_SECRET);
  const ceremonies = passkeyCeremonies(relyingParty(config.APP_URL));

  async function dropRecoveryCodesIfLast(tx: SqlExecutor, userId: string): Promise<void> {
    if (!(await repository.hasFactor(tx, userId))) await repository.deleteRecoveryCodes(tx, userId);
  }

  return {
    async status(userId: string): Promise<FactorStatus> {
      const { db } = database;
      const [totp, passkeys, left] = await Promise.all([
        repository.totp(db, userId),
        repository.passkeys(db, userId),
        repository.recoveryCodesLeft(db, userId),
      ]);
      return { totp: totp?.enabled === true, passkeys: passkeys.map(passkeyView), recovery_codes_left: left };
    },

    /** A new pending secret (replacing an unfinished set-up); 409 while an app is on. */
    async setupTotp(user: AuthUser) {
      requireSession(user);
      const secret = newTotpSecret();
      const saved = await repository.savePendingTotp(database.db, user.id, checks.seal(secret));
      if (!saved)
        throw new AppError(
          409,
          "An authenticator app is on already. Turn it off first to set up another.",
          "conflict",
        );
      const url = otpauthUrl(secret, user.email, "ByteToll");
      return { secret, otpauth_url: url, qr_code: qrCodeFor(url) };
    },

    /** The first right code turns the pending app on and gives ten recovery codes (shown once). */
    async enableTotp(user: AuthUser, code: string, ip: string): Promise<string[]> {
      requireSession(user);
      const totp = await repository.totp(database.db, user.id);
      if (!totp) throw new AppError(409, "Set up the authenticator app first.", "conflict");
      if (totp.enabled) throw new AppError(409, "The authenticator app is on already.", "conflict");
      return checks.limited(limitKeys(user.id, ip), wrongCode, async (tx) => {
        if (!(await checks.totpCodeIsRight(tx, user.id, code, true))) return null;
        return checks.issueRecoveryCodes(tx, user.id);
      });
    },

    /** A current code or an unused recovery code turns the app off. */
    async disableTotp(user: AuthUser, input: TotpDisableRequest, ip: string): Promise<void> {
      requireSession(user);
      const totp = await repository.totp(database.db, user.id);
      if (!totp?.enabled) throw new AppError(409, "No authenticator app is on.", "conflict");
      await checks.limited(limitKeys(user.id, ip), wrongCode, async (tx) => {
        const right = input.code
          ? await checks.totpCodeIsRight(tx, user.id, input.code)
          : await checks.recoveryCodeIsRight(tx, user.id, input.recovery_code ?? "");
        if (!right) return null;
        await repository.deleteTotp(tx, user.id);
        await dropRecoveryCodesIfLast(tx, user.id);
        return true;
      });
    },

    /** Registration options; their challenge is kept for PASSKEY_CHALLENGE_MINUTES, single use. */
    async passkeyOptions(user: AuthUser) {
      requireSession(user);
      const existing = await repository.passkeys(database.db, user.id);
      const options = await ceremonies.registrationOptions(user.id, user.email, existing);
      await repository.insertChallenge(database.db, {
        userId: user.id,
        purpose: "passkey",
        tokenHash: null,
        webauthnChallenge: options.challenge,
        purchaseAmountUsd: null,
        dealId: null,
        validMinutes: PASSKEY_CHALLENGE_MINUTES,
      });
      return options as unknown as Record<string, unknown>;
    },

    /** Saves the passkey the browser made for the latest options; the first factor of the
     * account brings its recovery codes. */
    async registerPasskey(user: AuthUser, input: PasskeyRegisterRequest) {
      requireSession(user);
      return repository.transaction(async (tx) => {
        const challenge = await repository.takePasskeyChallenge(tx, user.id);
        if (!challenge)
          throw new AppError(400, "Start adding the passkey again: its request expired.", "invalid_passkey");
        const credential = await ceremonies.verifyRegistration(input.response, challenge);
        if (!credential)
          throw new AppError(400, "The passkey could not be verified. Please try again.", "invalid_passkey");
        const firstFactor = !(await repository.hasFactor(tx, user.id));
        const saved = await repository.insertPasskey(tx, user.id, { ...credential, name: input.name.trim() });
        if (!saved) throw new AppError(409, "This passkey is registered already.", "conflict");
        const recoveryCodes = firstFactor ? await checks.issueRecoveryCodes(tx, user.id) : [];
        return { passkey: passkeyView(saved), recovery_codes: recoveryCodes };
      });
    },

    async removePasskey(user: AuthUser, id: string): Promise<void> {
      requireSession(user);
      await repository.transaction(async (tx) => {
        if (!(await repository.deletePasskey(tx, user.id, id))) throw notFound("No such passkey.");
        await dropRecoveryCodesIfLast(tx, user.id);
      });
    },
  };
}

export type FactorSettings = ReturnType<typeof createFactorSettings>;
