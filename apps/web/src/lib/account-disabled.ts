import { ACCOUNT_DISABLED } from "@bytetoll/contracts";
import { useSyncExternalStore } from "react";

type Listener = () => void;

let disabledMessage: string | null = null;
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** Whether an API answer is the server's "this account is disabled" refusal. */
export function isAccountDisabledAnswer(status: number, message: string | undefined): message is string {
  return status === 403 && typeof message === "string" && message.startsWith(ACCOUNT_DISABLED);
}

/** Any call that learns the account is disabled tells the whole page, which then shows only that. */
export function reportAccountDisabled(message: string): void {
  if (disabledMessage === message) return;
  disabledMessage = message;
  notify();
}

/** Sign-out from the notice: the page may be used again (by another account, or anonymously). */
export function forgetAccountDisabled(): void {
  if (disabledMessage === null) return;
  disabledMessage = null;
  notify();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The server's message while the signed-in (or signing-in) account is disabled, else null. */
export function useAccountDisabled(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => disabledMessage,
    () => null,
  );
}
