import { useCallback, useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { STORAGE_KEYS } from "../../../lib/storage-keys.ts";
import { randomSessionId, type UsernameOptions } from "../username-options.ts";

/** docs/product.md#routes-and-layout query parameters for the two toggles. */
export const STICKY_PARAM = "ss";
export const INTELLIGENCE_PARAM = "ai";

function readStoredFlag(key: string): boolean {
  try {
    return window.localStorage.getItem(key) === "true";
  } catch {
    return false;
  }
}

function writeStoredFlag(key: string, on: boolean): void {
  try {
    if (on) window.localStorage.setItem(key, "true");
    else window.localStorage.removeItem(key);
  } catch {
    // Storage refused (private mode): the URL still carries the flag.
  }
}

export interface UsernameOptionsState extends UsernameOptions {
  sticky: boolean;
  setSticky(on: boolean): void;
  setIntelligence(on: boolean): void;
}

/**
 * The sticky-session and intelligence toggles: on when the URL says `=true` or local storage
 * remembers them, and mirrored both ways (docs/product.md#routes-and-layout). Turning one off removes its stored flag
 * and its username suffix (docs/product.md#states).
 */
export function useUsernameOptions(): UsernameOptionsState {
  const [searchParams, setSearchParams] = useSearchParams();
  const [sticky, setStickyState] = useState(
    () => searchParams.get(STICKY_PARAM) === "true" || readStoredFlag(STORAGE_KEYS.stickySession),
  );
  const [intelligence, setIntelligenceState] = useState(
    () => searchParams.get(INTELLIGENCE_PARAM) === "true" || readStoredFlag(STORAGE_KEYS.intelligence),
  );
  const [sessionId, setSessionId] = useState<string | null>(() => (sticky ? randomSessionId() : null));

  // Mirror the state into storage and the URL (replace: a toggle is not a navigation step). Only
  // a URL that differs is written, so the new search params do not trigger another write.
  useEffect(() => {
    writeStoredFlag(STORAGE_KEYS.stickySession, sticky);
    writeStoredFlag(STORAGE_KEYS.intelligence, intelligence);
    const next = new URLSearchParams(searchParams);
    if (sticky) next.set(STICKY_PARAM, "true");
    else next.delete(STICKY_PARAM);
    if (intelligence) next.set(INTELLIGENCE_PARAM, "true");
    else next.delete(INTELLIGENCE_PARAM);
    if (next.toString() !== searchParams.toString()) {
      setSearchParams(next, { replace: true, preventScrollReset: true });
    }
  }, [sticky, intelligence, searchParams, setSearchParams]);

  const setSticky = useCallback((on: boolean) => {
    setStickyState(on);
    setSessionId(on ? randomSessionId() : null);
  }, []);
  const setIntelligence = useCallback((on: boolean) => setIntelligenceState(on), []);

  return useMemo(
    () => ({ sticky, sessionId, intelligence, setSticky, setIntelligence }),
    [sticky, sessionId, intelligence, setSticky, setIntelligence],
  );
}
