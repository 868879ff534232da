import { useSyncExternalStore } from "react";
import { STORAGE_KEYS } from "./storage-keys.ts";

/** docs/product.md#data-shapes: the stored app token is valid only while exp is more than 10 s in the future. */
export const TOKEN_EXPIRY_MARGIN_SECONDS = 10;

export interface StoredToken {
  token: string;
  /** Expiry, epoch seconds. */
  exp: number;
}

type Listener = () => void;
const listeners = new Set<Listener>();

// Cached by the raw string so useSyncExternalStore sees a stable snapshot between changes.
let cachedRaw: string | null = null;
let cachedValue: StoredToken | null = null;

function parse(raw: string | null): StoredToken | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null) return null;
    const { token, exp } = value as Record<string, unknown>;
    if (typeof token !== "string" || token.length === 0 || typeof exp !== "number") return null;
    return { token, exp };
  } catch {
    return null;
  }
}

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.appToken);
  } catch {
    // Storage can be unavailable (private mode, blocked cookies): behave as signed out.
    return null;
  }
}

/** The stored token, expired or not. */
export function readStoredToken(): StoredToken | null {
  const raw = readRaw();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedValue = parse(raw);
  }
  return cachedValue;
}

export function isTokenUsable(stored: StoredToken | null, nowMs: number = Date.now()): stored is StoredToken {
  return stored !== null && stored.exp - nowMs / 1000 > TOKEN_EXPIRY_MARGIN_SECONDS;
}

/** The bearer token to send, or null when there is none or it expires within the margin. */
export function readUsableToken(): string | null {
  const stored = readStoredToken();
  return isTokenUsable(stored) ? stored.token : null;
}

function notify(): void {
  for (const listener of listeners) listener();
}

export function storeToken(value: StoredToken): void {
  window.localStorage.setItem(STORAGE_KEYS.appToken, JSON.stringify(value));
  notify();
}

export function clearToken(): void {
  try {
    window.localStorage.removeItem(STORAGE_KEYS.appToken);
  } catch {
    // Nothing stored that could be removed.
  }
  notify();
}

/** Lets components re-render when the token changes here or in another tab. */
export function subscribeToToken(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEYS.appToken) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function useStoredToken(): StoredToken | null {
  return useSyncExternalStore(subscribeToToken, readStoredToken, () => null);
}
