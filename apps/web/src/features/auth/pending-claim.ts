import { STORAGE_KEYS } from "../../lib/storage-keys.ts";

/** The anonymous credential set a login link was asked for with. */
export interface CredentialClaim {
  username: string;
  password: string;
}

/** A little longer than a link stays valid (10 minutes): older entries are dropped unread. */
const KEEP_MS = 15 * 60_000;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Kept when the link is asked for, in this browser only: the server attaches the set to the
 * account only when the link's callback presents it again, so a link someone else asked for
 * (naming this person's e-mail) can never attach their set. localStorage, because the e-mailed
 * link opens in another tab.
 */
export function rememberCredentialClaim(claim: CredentialClaim): void {
  storage()?.setItem(
    STORAGE_KEYS.pendingCredentialClaim,
    JSON.stringify({ ...claim, until: Date.now() + KEEP_MS }),
  );
}

export function forgetCredentialClaim(): void {
  storage()?.removeItem(STORAGE_KEYS.pendingCredentialClaim);
}

/** The kept set, or null when there is none (or it is stale or unreadable). */
export function readCredentialClaim(): CredentialClaim | null {
  const raw = storage()?.getItem(STORAGE_KEYS.pendingCredentialClaim);
  if (!raw) return null;
  try {
    const { username, password, until } = JSON.parse(raw) as Record<string, unknown>;
    if (typeof username === "string" && typeof password === "string" && Number(until) > Date.now()) {
      return { username, password };
    }
  } catch {
    // Unreadable: dropped below like a stale one.
  }
  forgetCredentialClaim();
  return null;
}
