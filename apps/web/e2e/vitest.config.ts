import { defineProject } from "vitest/config";

// End-to-end specs: the real server (child process, real database) and Debian's Chromium.
export default defineProject({
  test: {
    name: "e2e",
    environment: "node",
    include: ["**/*.spec.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each spec file starts its own server and browser. They share the workers with the other
    // projects' files (a project with its own worker count would run in a phase of its own).
  },
});
