import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// The first render of a file transforms the lazy route modules; on a busy 2-core machine that can
// exceed Testing Library's 1 s default, which would fail tests for reasons unrelated to behaviour.
configure({ asyncUtilTimeout: 10_000 });

// Test files share a worker (isolate: false): each starts from a fresh registry of our own modules,
// so a file's vi.mock applies even when an earlier file loaded the real module (packages from
// node_modules, such as React, stay loaded: that is the time saved).
vi.resetModules();

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.localStorage.clear();
});
