import {
  FACTOR_FAILURES_ALLOWED,
  FACTOR_RATE_LIMITED,
  FACTOR_WINDOW_MINUTES,
  RECOVERY_CODE_COUNT,
} from "@bytetoll/contracts";
import { decryptSecret, deriveKey, encryptSecret, hashSecret, type SqlExecutor } from "@bytetoll/db";
import { AppError } from "../../errors.ts";
import type { TwoFactorRepository } from "./repository.ts";
import { matchingStep, newRecoveryCode, normalizeRecoveryCode } from "./totp.ts";

/** Checking a factor, and limiting wrong tries, for both the settings and the sign-in. */
export function factorChecks(repository: TwoFactorRepository, appSecret: string) {
  const key = deriveKey(appSecret, "totp-secret");

  return {
    seal: (secret: string) => encryptSecret(key, secret),
    open: (sealed: string) => decryptSecret(key, sealed),

    /** A right code for the account's app (pending ones too when `pendingToo`), taken once. */
    async totpCodeIsRight(
      tx: SqlExecutor,
      userId: string,
      code: string,
      pendingToo = false,
    ): Promise<boolean> {
      const totp = await repository.totp(tx, userId, true);
      if (!totp || (!totp.enabled && !pendingToo)) return false;
      const step = matchingStep(decryptSecret(key, totp.secretEnc), code, totp.lastStep);
      return step !== null && (await repository.acceptTotpStep(tx, userId, step));
    },

    recoveryCodeIsRight(tx: SqlExecutor, userId: string, code: string): Promise<boolean> {
      return repository.useRecoveryCode(tx, userId, hashSecret(normalizeRecoveryCode(code)));
    },

    /** Ten new recovery codes replace any the account had; only their hashes are kept. */
    async issueRecoveryCodes(tx: SqlExecutor, userId: string): Promise<string[]> {
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await repository.replaceRecoveryCodes(
        tx,
        userId,
        codes.map((code) => hashSecret(normalizeRecoveryCode(code))),
      );
      return codes;
    },

    /**
     * Runs `work` (which checks a factor) unless the account or the address has used up its wrong
     * tries (429, nothing checked). A null result is a wrong try: it is counted for both, and
     * `wrong` is thrown after the count is committed. The keys are locked in one order, so
     * concurrent tries on any instance are counted one after another.
     */
    async limited<T>(
      keys: string[],
      wrong: () => AppError,
      work: (tx: SqlExecutor) => Promise<T | null>,
    ): Promise<T> {
      const outcome = await repository.transaction(async (tx) => {
        for (const limitKey of [...keys].sort()) {
          const failures = await repository.lockAndCountFailures(tx, limitKey, FACTOR_WINDOW_MINUTES);
          if (failures >= FACTOR_FAILURES_ALLOWED) return { kind: "limited" as const };
        }
        const value = await work(tx);
        if (value !== null) return { kind: "done" as const, value };
        for (const limitKey of keys) await repository.recordFailure(tx, limitKey);
        return { kind: "wrong" as const };
      });
      if (outcome.kind === "limited") throw new AppError(429, FACTOR_RATE_LIMITED, "rate_limited");
      if (outcome.kind === "wrong") throw wrong();
      return outcome.value;
    },
  };
}

/** The per-account and per-address keys wrong tries are counted under. */
export const limitKeys = (userId: string, ip: string) => [`user:${userId}`, `ip:${ip}`];
