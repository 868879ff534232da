import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "mcp",
    environment: "node",
    include: ["test/**/*.test.ts"],
    // Each file starts a real install (API, gateway, database); PGlite start-up dominates.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
