import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "server",
    environment: "node",
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // Each file builds its own app on its own fresh database; PGlite start-up dominates.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
