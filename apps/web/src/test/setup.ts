import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { forgetAccountDisabled } from "../lib/account-disabled.ts";

// The first render of a file transforms the lazy route modules; on a busy 2-core machine that can
// exceed Testing Library's 1 s default, which would fail tests for reasons unrelated to behaviour.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.localStorage.clear();
  forgetAccountDisabled();
});
