import { STORAGE_KEYS } from "./storage-keys.ts";

/** The Get started steps only the browser sees happen: pages record them, the dashboard reads them. */
export type RecordedStep = "credentialsCopied" | "connectionTested";

export function recordStepDone(step: RecordedStep): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS[step], "true");
  } catch {
    // Storage refused: the checklist simply keeps offering the step.
  }
}

export function isStepRecorded(step: RecordedStep): boolean {
  try {
    return window.localStorage.getItem(STORAGE_KEYS[step]) === "true";
  } catch {
    return false;
  }
}
