import {
  CITY_PATTERN,
  countryCodeProblem,
  SESSION_MINUTES_DEFAULT,
  sessionMinutesProblem,
} from "@bytetoll/contracts";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { STORAGE_KEYS } from "../../../lib/storage-keys.ts";
import { isSessionId, randomSessionId, type UsernameOptions } from "../username-options.ts";

/** docs/product.md#routes-and-layout query parameters for the two toggles. */
export const STICKY_PARAM = "ss";
export const INTELLIGENCE_PARAM = "ai";

/** A flag the URL states ("true" or "false") wins over the stored one: a shared link means it. */
function initialFlag(param: string | null, key: string): boolean {
  if (param === "true" || param === "false") return param === "true";
  return readStoredFlag(key);
}

function readStoredFlag(key: string): boolean {
  try {
    return window.localStorage.getItem(key) === "true";
  } catch {
    return false;
  }
}

/** The stored sticky id when it is a well-formed one, else a fresh id. */
function storedOrNewSessionId(): string {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEYS.stickySessionId);
    return isSessionId(stored) ? stored : randomSessionId();
  } catch {
    return randomSessionId();
  }
}

function writeStoredSessionId(sessionId: string | null): void {
  try {
    if (sessionId) window.localStorage.setItem(STORAGE_KEYS.stickySessionId, sessionId);
    else window.localStorage.removeItem(STORAGE_KEYS.stickySessionId);
  } catch {
    // Storage refused: the id lasts until the page is reloaded.
  }
}

/** The stored lifetime when it is one the gateway takes, else the default. */
function storedSessionMinutes(): number {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEYS.sessionMinutes);
    return stored !== null && sessionMinutesProblem(stored) === null
      ? Number(stored)
      : SESSION_MINUTES_DEFAULT;
  } catch {
    return SESSION_MINUTES_DEFAULT;
  }
}

function writeStoredSessionMinutes(minutes: number | null): void {
  try {
    if (minutes !== null && minutes !== SESSION_MINUTES_DEFAULT)
      window.localStorage.setItem(STORAGE_KEYS.sessionMinutes, String(minutes));
    else window.localStorage.removeItem(STORAGE_KEYS.sessionMinutes);
  } catch {
    // Storage refused: the lifetime lasts until the page is reloaded.
  }
}

function storedCountry(): string | null {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEYS.exitCountry);
    return stored !== null && countryCodeProblem(stored) === null ? stored : null;
  } catch {
    return null;
  }
}

function storedCity(): string | null {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEYS.exitCity);
    return stored !== null && CITY_PATTERN.test(stored) ? stored : null;
  } catch {
    return null;
  }
}

function writeStoredCity(city: string | null): void {
  try {
    if (city) window.localStorage.setItem(STORAGE_KEYS.exitCity, city);
    else window.localStorage.removeItem(STORAGE_KEYS.exitCity);
  } catch {
    // Storage refused: the city lasts until the page is reloaded.
  }
}

function writeStoredCountry(country: string | null): void {
  try {
    if (country) window.localStorage.setItem(STORAGE_KEYS.exitCountry, country);
    else window.localStorage.removeItem(STORAGE_KEYS.exitCountry);
  } catch {
    // Storage refused: the country lasts until the page is reloaded.
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
  /** A new sticky id, and with it a new exit IP. */
  rotateSession(): void;
  setIntelligence(on: boolean): void;
  /** ISO code of the exit country, or null for any. */
  country: string | null;
  setCountry(country: string | null): void;
  /** The exit city (`-city-`), or null for any. */
  city: string | null;
  setCity(city: string | null): void;
  /** Minutes a sticky session keeps its exit after its last use. */
  sessionMinutes: number;
  setSessionMinutes(minutes: number): void;
}

/**
 * The sticky-session and intelligence toggles: as the URL says (`=true` or `=false`), else as
 * local storage remembers them, and mirrored both ways (docs/product.md#routes-and-layout). Turning one off removes its stored flag
 * and its username suffix (docs/product.md#states).
 */
export function useUsernameOptions(): UsernameOptionsState {
  const [searchParams, setSearchParams] = useSearchParams();
  const [sticky, setStickyState] = useState(() =>
    initialFlag(searchParams.get(STICKY_PARAM), STORAGE_KEYS.stickySession),
  );
  const [intelligence, setIntelligenceState] = useState(() =>
    initialFlag(searchParams.get(INTELLIGENCE_PARAM), STORAGE_KEYS.intelligence),
  );
  // The id survives reloads while sticky stays on, so a username copied earlier keeps matching the page.
  const [sessionId, setSessionId] = useState<string | null>(() => (sticky ? storedOrNewSessionId() : null));

  // Mirror the state into storage and the URL (replace: a toggle is not a navigation step). Only
  // a URL that differs is written, so the new search params do not trigger another write.
  useEffect(() => {
    writeStoredFlag(STORAGE_KEYS.stickySession, sticky);
    writeStoredFlag(STORAGE_KEYS.intelligence, intelligence);
    writeStoredSessionId(sessionId);
    const next = new URLSearchParams(searchParams);
    if (sticky) next.set(STICKY_PARAM, "true");
    else next.delete(STICKY_PARAM);
    if (intelligence) next.set(INTELLIGENCE_PARAM, "true");
    else next.delete(INTELLIGENCE_PARAM);
    if (next.toString() !== searchParams.toString()) {
      setSearchParams(next, { replace: true, preventScrollReset: true });
    }
  }, [sticky, sessionId, intelligence, searchParams, setSearchParams]);

  const setSticky = useCallback((on: boolean) => {
    setStickyState(on);
    setSessionId(on ? randomSessionId() : null);
  }, []);
  const rotateSession = useCallback(() => setSessionId(randomSessionId()), []);
  const setIntelligence = useCallback((on: boolean) => setIntelligenceState(on), []);
  const [country, setCountry] = useState<string | null>(storedCountry);
  useEffect(() => writeStoredCountry(country), [country]);
  const [city, setCity] = useState<string | null>(storedCity);
  useEffect(() => writeStoredCity(city), [city]);
  // Kept with the session id: a reload shows the username that was copied, lifetime included.
  const [sessionMinutes, setSessionMinutes] = useState(() =>
    sticky ? storedSessionMinutes() : SESSION_MINUTES_DEFAULT,
  );
  useEffect(() => writeStoredSessionMinutes(sticky ? sessionMinutes : null), [sticky, sessionMinutes]);

  return useMemo(
    () => ({
      sticky,
      sessionId,
      intelligence,
      setSticky,
      rotateSession,
      setIntelligence,
      country,
      setCountry,
      city,
      setCity,
      sessionMinutes,
      setSessionMinutes,
    }),
    [
      sticky,
      sessionId,
      intelligence,
      setSticky,
      rotateSession,
      setIntelligence,
      country,
      city,
      sessionMinutes,
    ],
  );
}
